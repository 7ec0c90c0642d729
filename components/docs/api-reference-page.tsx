"use client";
// /docs/api (public; docs/api-reference.md): the relay API's and the console API's OpenAPI
// documents, read from /v1/openapi.json and /api/openapi.json and shown by tag (the relay's
// first: what a user calls), each operation with its method, path, summary, who may call it,
// its parameters, its body, and a curl and an OpenAI Python SDK example against the site's
// base URL, each with a copy button.
import { useTranslations } from "next-intl";
import { useMemo, useState } from "react";
import useSWR from "swr";
import { useSiteAddress } from "@/components/content/base-url";
import { useStatus } from "@/components/layout/providers";
import { Badge, type BadgeColor } from "@/components/ui/badge";
import { Alert, PageTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs } from "@/components/ui/tabs";
import { curlExample, exampleOf, pythonExample, type ExampleOperation } from "@/lib/client/api-examples";

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; description?: string };
type ParameterRef = { $ref: string };
type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  "x-auth"?: string;
  parameters?: (Parameter | ParameterRef)[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Document = {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> };
};

const METHODS = ["get", "post", "put", "patch", "delete"];
const METHOD_COLOR: Record<string, BadgeColor> = { get: "blue", post: "green", put: "orange", patch: "yellow", delete: "red" };
const AUTH_COLOR: Record<string, BadgeColor> = { public: "gray", session: "blue", token: "blue", admin: "purple", root: "red", "mj-callback": "gray" };
const AUTH_KEYS = ["public", "session", "admin", "root", "token", "mj-callback"] as const;

async function fetchDocument(url: string): Promise<Document> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(String(res.status));
  return (await res.json()) as Document;
}

// A schema's $ref, followed once, for reading.
function resolve(doc: Document, s: Schema | undefined): Schema | undefined {
  const ref = s?.$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) return doc.components?.schemas?.[ref.slice("#/components/schemas/".length)] ?? s;
  return s;
}

// A parameter given as a $ref (the relay's X-Request-Id header), followed.
function parameterOf(doc: Document, p: Parameter | ParameterRef): Parameter | null {
  if (!("$ref" in p)) return p;
  const prefix = "#/components/parameters/";
  return p.$ref.startsWith(prefix) ? (doc.components?.parameters?.[p.$ref.slice(prefix.length)] ?? null) : null;
}

function typeOf(s: Schema | undefined): string {
  if (!s) return "";
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(s.type)) return s.type.join(" | ");
  if (typeof s.type === "string") return s.type;
  for (const k of ["anyOf", "oneOf"]) if (Array.isArray(s[k])) return (s[k] as Schema[]).map(typeOf).join(" | ");
  return "any";
}

function Operations({ url, filter }: { url: string; filter: string }) {
  const t = useTranslations("apiDocs");
  const { data: doc, error, isLoading } = useSWR<Document>(url, fetchDocument);
  const groups = useMemo(() => {
    const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
    if (!doc) return byTag;
    const q = filter.trim().toLowerCase();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        if (q && !`${method} ${path} ${op.summary ?? ""}`.toLowerCase().includes(q)) continue;
        const tag = op.tags?.[0] ?? "-";
        byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
      }
    }
    return new Map([...byTag].sort(([a], [b]) => a.localeCompare(b)));
  }, [doc, filter]);

  if (error) return <Alert tone="error">{t("loadFailed")}</Alert>;
  if (isLoading || !doc) return <p className="text-sm text-zinc-500 dark:text-zinc-400">{t("loading")}</p>;
  const count = [...groups.values()].reduce((n, ops) => n + ops.length, 0);
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
        <span>
          {doc.info.title} · {doc.info.version}
        </span>
        <span>{t("operations", { count })}</span>
        <a href={url} target="_blank" rel="noopener noreferrer" className="text-blue-600 hover:underline dark:text-blue-400">
          {t("rawJson")}
        </a>
      </div>
      {doc.info.description && <p className="text-sm text-zinc-700 dark:text-zinc-300">{doc.info.description}</p>}
      {count === 0 && <p className="text-sm text-zinc-500 dark:text-zinc-400">{t("noMatch")}</p>}
      {[...groups].map(([tag, ops]) => (
        <section key={tag} aria-label={tag} className="flex flex-col gap-2">
          <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-100">{tag}</h2>
          <div className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
            {ops.map(({ method, path, op }) => (
              <OperationRow key={`${method} ${path}`} doc={doc} method={method} path={path} op={op} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

function OperationRow({ doc, method, path, op }: { doc: Document; method: string; path: string; op: Operation }) {
  const t = useTranslations("apiDocs");
  const base = useSiteAddress(useStatus().server_address);
  const auth = op["x-auth"] ?? "public";
  const params = (op.parameters ?? []).map((p) => parameterOf(doc, p)).filter((p): p is Parameter => p !== null);
  const body = Object.entries(op.requestBody?.content ?? {})[0];
  const example: ExampleOperation = {
    method,
    path,
    auth,
    query: params.filter((p) => p.in === "query" && p.required),
    body: body && { type: body[0], schema: body[1].schema },
  };
  const sample = body ? exampleOf(body[1].schema, (s) => resolve(doc, s) ?? s) : undefined;
  const examples = [
    { key: "curl", label: "curl", text: curlExample(example, base, sample) },
    { key: "python", label: t("python"), text: pythonExample(example, base, sample) },
  ];
  return (
    <details className="group" data-testid="api-operation">
      <summary className="flex cursor-pointer list-none flex-wrap items-center gap-2 px-3 py-2 hover:bg-zinc-50 dark:hover:bg-zinc-800/60">
        <Badge color={METHOD_COLOR[method] ?? "gray"} className="w-16 justify-center font-mono uppercase">
          {method}
        </Badge>
        <code className="font-mono text-sm break-all text-zinc-900 dark:text-zinc-100">{path}</code>
        <span className="min-w-0 flex-1 truncate text-sm text-zinc-600 dark:text-zinc-400">{op.summary}</span>
        <Badge color={AUTH_COLOR[auth] ?? "gray"}>
          {(AUTH_KEYS as readonly string[]).includes(auth) ? t(`auth.${auth as (typeof AUTH_KEYS)[number]}`) : auth}
        </Badge>
      </summary>
      <div className="flex flex-col gap-3 border-t border-zinc-100 px-3 py-3 text-sm dark:border-zinc-800">
        {op.description && op.description !== op.summary && <p className="text-zinc-700 dark:text-zinc-300">{op.description}</p>}
        <div>
          <h3 className="mb-1 font-medium text-zinc-900 dark:text-zinc-100">{t("parameters")}</h3>
          {params.length === 0 ? (
            <p className="text-zinc-500 dark:text-zinc-400">{t("none")}</p>
          ) : (
            <table className="w-full text-left text-xs">
              <thead className="text-zinc-500 dark:text-zinc-400">
                <tr>
                  <th className="py-1 pr-3 font-medium">{t("name")}</th>
                  <th className="py-1 pr-3 font-medium">{t("in")}</th>
                  <th className="py-1 pr-3 font-medium">{t("type")}</th>
                  <th className="py-1 font-medium">{t("required")}</th>
                </tr>
              </thead>
              <tbody className="text-zinc-800 dark:text-zinc-200">
                {params.map((p) => (
                  <tr key={`${p.in}:${p.name}`} className="border-t border-zinc-100 dark:border-zinc-800">
                    <td className="py-1 pr-3 font-mono">{p.name}</td>
                    <td className="py-1 pr-3">{p.in}</td>
                    <td className="py-1 pr-3 font-mono break-all">{typeOf(p.schema)}</td>
                    <td className="py-1">{p.required ? t("yes") : t("no")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        <div>
          <h3 className="mb-1 font-medium text-zinc-900 dark:text-zinc-100">{t("body")}</h3>
          {body ? (
            <details>
              <summary className="cursor-pointer text-blue-600 dark:text-blue-400">{t("schemaOf", { type: body[0] })}</summary>
              <pre className="mt-2 max-h-96 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs text-zinc-800 dark:bg-zinc-950 dark:text-zinc-200">
                {JSON.stringify(resolve(doc, body[1].schema) ?? {}, null, 2)}
              </pre>
            </details>
          ) : (
            <p className="text-zinc-500 dark:text-zinc-400">{t("none")}</p>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <h3 className="font-medium text-zinc-900 dark:text-zinc-100">{t("examples")}</h3>
          {examples.map((e) => (
            <figure key={e.key} className="relative" data-testid={`example-${e.key}`}>
              <figcaption className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">{e.label}</figcaption>
              <pre className="max-h-96 overflow-auto rounded bg-zinc-50 p-2 pr-10 font-mono text-xs text-zinc-800 dark:bg-zinc-950 dark:text-zinc-200">
                {e.text}
              </pre>
              <CopyButton label={t("copyExample", { lang: e.label })} successKey="apiDocs.copied" text={() => e.text} className="absolute top-6 right-1.5" />
            </figure>
          ))}
        </div>
      </div>
    </details>
  );
}

export function ApiReferencePage() {
  const t = useTranslations("apiDocs");
  const [filter, setFilter] = useState("");
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6">
      <PageTitle
        actions={
          <Input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t("filter")} aria-label={t("filter")} className="w-64" />
        }
      >
        {t("title")}
      </PageTitle>
      <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t("intro")}</p>
      <Tabs
        items={[
          { value: "relay", label: t("relayTab"), content: <Operations url="/v1/openapi.json" filter={filter} /> },
          { value: "console", label: t("consoleTab"), content: <Operations url="/api/openapi.json" filter={filter} /> },
        ]}
      />
    </div>
  );
}
