// GET /api/openapi.json: the console API's OpenAPI 3.1 document (public; docs/api-reference.md)
import { Reply, route } from "@/lib/http/route";
import { consoleDocument } from "@/lib/openapi/console";
import { APP_VERSION } from "@/lib/version";
import { CONSOLE_ROUTE_FILES } from "./routes";

// Built once per process: the registry and the schemas do not change while it runs.
let doc: unknown;

export const GET = route({ access: "public" }, async () => {
  doc ??= consoleDocument(CONSOLE_ROUTE_FILES, APP_VERSION);
  return new Reply({ raw: doc });
});
