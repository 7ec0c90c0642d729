// Local ESLint rule: on the per-request path, no object literal starts with a spread and adds
// more after it ({ ...a, b: 1 } or { ...a, ...b }). On Node 20 each evaluation of such a
// literal makes a new hidden class in the old generation (docs/conventions.md, "Objects on
// the per-request path"; docs/relay.md). Object.assign, an explicit literal, a lone copy
// ({ ...a }) or a spread after a first property ({ a: 1, ...b }) are fine. The folders it
// applies to are set in eslint.config.mjs; tests/unit/hot-path-objects.test.ts checks the
// same thing and the run-time behaviour behind it.
const rule = {
  meta: {
    type: "problem",
    docs: { description: "forbid object literals that start with a spread and add more, on the per-request path" },
    schema: [],
    messages: {
      spreadWithMore:
        "An object literal that starts with a spread and adds more gets a new hidden class on every call: write the literal out, or use Object.assign({ more }, a) / Object.assign({}, a, b).",
    },
  },
  create(context) {
    return {
      ObjectExpression(node) {
        if (node.properties.length > 1 && node.properties[0].type === "SpreadElement") {
          context.report({ node, messageId: "spreadWithMore" });
        }
      },
    };
  },
};

export default rule;
