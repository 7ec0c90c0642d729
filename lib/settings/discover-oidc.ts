// The OIDC Well-Known fetch of the settings page (docs/settings.md): the discovery document
// is read by the server (through the worker when WorkerUrl is set, else under the outbound
// policy: lib/settings/fetch-json.ts), and its three endpoints are answered for
// the form to fill (nothing is saved here). Root only, as the OIDC options.
import "server-only";
import type { UserCtx } from "@/lib/ctx";
import { AppError } from "@/lib/errors";
import { checkOptionValue, HTTP_URL } from "@/lib/options/rules";
import { fetchJsonDocument } from "@/lib/settings/fetch-json";

export type OidcEndpoints = { authorization_endpoint: string; token_endpoint: string; userinfo_endpoint: string };

const isHttpUrl = (v: unknown): v is string => typeof v === "string" && HTTP_URL.test(v);

export async function discoverOidc({ ctx, input }: { ctx: UserCtx; input: { well_known: string } }): Promise<OidcEndpoints> {
  const check = checkOptionValue("oidc.well_known", input.well_known);
  if (!check.ok) throw new AppError("INVALID_INPUT", check.key, check.params);
  if (check.value === "") throw new AppError("INVALID_INPUT", "oidc_well_known_missing");
  const doc = await fetchJsonDocument(ctx, check.value, "oidc_discovery_refused");
  if (!doc || !isHttpUrl(doc.authorization_endpoint) || !isHttpUrl(doc.token_endpoint) || !isHttpUrl(doc.userinfo_endpoint)) {
    throw new AppError("INVALID_INPUT", "oidc_discovery_failed");
  }
  return { authorization_endpoint: doc.authorization_endpoint, token_endpoint: doc.token_endpoint, userinfo_endpoint: doc.userinfo_endpoint };
}
