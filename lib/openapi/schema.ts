// zod schemas as OpenAPI 3.1 schema objects (docs/api-reference.md). OpenAPI 3.1's schema
// dialect is JSON Schema 2020-12, which is what z.toJSONSchema writes; a schema's own $defs
// (recursive or shared parts) are moved into components.schemas so that every $ref resolves
// from the document's root.
import { z } from "zod";
import { dict } from "@/lib/own-keys";

export type JsonSchema = Record<string, unknown>;

export class SchemaBag {
  readonly components: Record<string, JsonSchema> = {};
  private count = 0;

  // The request side ("input"): what a client sends, before defaults and transforms.
  convert(schema: z.ZodType, name: string): JsonSchema {
    const raw = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as JsonSchema;
    delete raw.$schema;
    const defs = (raw.$defs ?? {}) as Record<string, JsonSchema>;
    delete raw.$defs;
    const prefix = `${name}_${++this.count}`;
    let selfRef = false;
    const rewrite = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(rewrite);
      if (!v || typeof v !== "object") return v;
      const out = dict<unknown>();
      for (const [k, x] of Object.entries(v)) {
        // z.int()'s own bounds (the safe integers) say nothing to a reader
        if ((k === "minimum" && x === Number.MIN_SAFE_INTEGER) || (k === "maximum" && x === Number.MAX_SAFE_INTEGER)) continue;
        if (k === "$ref" && typeof x === "string") {
          if (x === "#") {
            selfRef = true;
            out[k] = `#/components/schemas/${prefix}`;
          } else if (x.startsWith("#/$defs/")) out[k] = `#/components/schemas/${prefix}_${x.slice("#/$defs/".length)}`;
          else out[k] = x;
        } else out[k] = rewrite(x);
      }
      return out;
    };
    for (const [key, def] of Object.entries(defs)) this.components[`${prefix}_${key}`] = rewrite(def) as JsonSchema;
    const root = rewrite(raw) as JsonSchema;
    if (!selfRef) return root;
    this.components[prefix] = root;
    return { $ref: `#/components/schemas/${prefix}` };
  }
}

// The properties of an object schema, one per query or path parameter.
export function objectProperties(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean; description?: string }[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({
    name,
    schema: s,
    required: required.has(name),
    description: typeof s.description === "string" ? s.description : undefined,
  }));
}
