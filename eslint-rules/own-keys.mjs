// Local ESLint rule: no entry is written under a computed name into an object made as a plain
// `{}` literal. Such an object answers `o["constructor"]` and `o["toString"]` with
// Object.prototype's functions, and `o["__proto__"] = v` replaces its prototype instead of
// storing an entry, so a model or group named so reads as set, or vanishes when saved
// (docs/conventions.md, "Own keys"). Make the map with dict() of lib/own-keys.ts (no
// prototype) and read it with own(). A Map, an array, or a name written as a literal are fine.
const isStaticKey = (node) => node.type === "Literal" || (node.type === "TemplateLiteral" && node.expressions.length === 0);

// The variable an identifier refers to, from the scope of the node outwards.
function variableOf(scope, name) {
  for (let s = scope; s; s = s.upper) {
    const v = s.set.get(name);
    if (v) return v;
  }
  return null;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "forbid writing computed names into a plain {} (use dict() of lib/own-keys.ts)" },
    schema: [],
    messages: {
      plainObjectKey:
        'An object made as {} loses a "__proto__" entry and answers "constructor" from its prototype: make it with dict() of lib/own-keys.ts (docs/conventions.md, "Own keys").',
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      AssignmentExpression(node) {
        const target = node.left;
        if (target.type !== "MemberExpression" || !target.computed || isStaticKey(target.property)) return;
        if (target.object.type !== "Identifier") return;
        const variable = variableOf(sourceCode.getScope(node), target.object.name);
        const def = variable?.defs[0];
        if (!def || def.type !== "Variable") return;
        const init = def.node.init;
        if (init && init.type === "ObjectExpression" && init.properties.length === 0) context.report({ node, messageId: "plainObjectKey" });
      },
    };
  },
};

export default rule;
