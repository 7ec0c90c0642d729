// Which permission every admin console route needs (docs/permissions.md): the route table of
// the permission sets, whose names and default set are lib/auth/permissions.ts. route()
// (lib/http/route.ts) checks a route's row after authentication, for an admin (the root holds
// every permission). Server side only: the console hides what an admin cannot do from the
// names alone (lib/client/navigation.ts, `can`).
import "server-only";
import { SETTINGS_PERMISSIONS, settingsPermission, type Permission } from "@/lib/auth/permissions";
import { isOptionKey, optionSpec } from "@/lib/options/registry";

// A route's rule: the caller must hold one of `anyOf` (checked before the body is read), and,
// when `byInput` is given, the one permission it names for the parsed input (an option's tab,
// an enable / disable that is only an operation). `byInput` answers null when the input asks
// for nothing more (the verb then refuses a bad input as usual).
export type RouteRule = {
  anyOf: readonly Permission[];
  byInput?: (input: { body: unknown; query: unknown }) => Permission | null;
};

const one = (p: Permission): RouteRule => ({ anyOf: [p] });
const any = (...p: Permission[]): RouteRule => ({ anyOf: p });

type Body = Record<string, unknown> | undefined;
const bodyOf = (input: { body: unknown }) => (input.body && typeof input.body === "object" ? (input.body as Body) : undefined);

// PUT /api/channel/ with only an id and a status is the list's enable / disable switch: an
// operation; any other field is a write.
function channelUpdate(input: { body: unknown }): Permission {
  const body = bodyOf(input) ?? {};
  const fields = Object.keys(body).filter((k) => k !== "id" && body[k] !== undefined);
  return fields.length === 1 && fields[0] === "status" ? "channels:operate" : "channels:write";
}
// POST /api/channel/multi_key/manage: enabling or disabling a key is an operation, deleting one a write.
function multiKeyManage(input: { body: unknown }): Permission {
  const action = bodyOf(input)?.action;
  return action === "enable_key" || action === "disable_key" || action === "enable_all_keys" ? "channels:operate" : "channels:write";
}

// PUT /api/option/: the settings tab of the key saved (lib/options/registry.ts); an unknown
// key asks for nothing more (the verb refuses it).
function optionTab(input: { body: unknown }): Permission | null {
  const key = bodyOf(input)?.key;
  return typeof key === "string" && isOptionKey(key) ? settingsPermission(optionSpec(key).tab) : null;
}

// Every admin console route (access "admin") and the permission it needs, keyed by
// "METHOD /path" as the route file's place under app/ names it ({id} for [id]).
// tests/unit/http/route-permissions.test.ts checks that every admin route declares its row
// and every row names a route; tests/integration/permissions.test.ts calls each one as an
// admin lacking its permission.
export const ROUTE_PERMISSIONS = {
  // channels
  "GET /api/channel": one("channels:read"),
  "POST /api/channel": one("channels:write"),
  "PUT /api/channel": { anyOf: ["channels:operate", "channels:write"], byInput: channelUpdate },
  "GET /api/channel/search": one("channels:read"),
  "GET /api/channel/{id}": one("channels:read"),
  "DELETE /api/channel/{id}": one("channels:write"),
  "POST /api/channel/{id}/key": one("channels:reveal"),
  "GET /api/perf/channels": one("channels:read"),
  "POST /api/channel/batch": one("channels:write"),
  "POST /api/channel/batch/tag": one("channels:write"),
  "POST /api/channel/copy/{id}": one("channels:write"),
  "DELETE /api/channel/disabled": one("channels:write"),
  "GET /api/channel/fetch_models/{id}": one("channels:write"),
  "POST /api/channel/fetch_models": one("channels:write"),
  "POST /api/channel/fix": one("channels:write"),
  "GET /api/channel/models": one("channels:read"),
  "GET /api/channel/models_enabled": one("channels:read"),
  "POST /api/channel/multi_key/manage": { anyOf: ["channels:operate", "channels:write"], byInput: multiKeyManage },
  "POST /api/channel/tag/disabled": one("channels:operate"),
  "POST /api/channel/tag/enabled": one("channels:operate"),
  "PUT /api/channel/tag": one("channels:write"),
  "GET /api/channel/tags": one("channels:read"),
  "GET /api/channel/test/{id}": one("channels:operate"),
  "GET /api/channel/test/progress": one("channels:operate"),
  "GET /api/channel/test": one("channels:operate"),
  "GET /api/channel/types": one("channels:read"),
  "GET /api/channel/update_balance/{id}": one("channels:operate"),
  "GET /api/channel/update_balance": one("channels:operate"),
  "GET /api/models": one("channels:read"),
  // the group names feed the pickers of the channel, user and plan editors
  "GET /api/group": any("channels:read", "users:read", "billing:read"),
  // users
  "GET /api/user": one("users:read"),
  "POST /api/user": one("users:write"),
  // a quota change also needs users:quota (lib/users/update-user.ts)
  "PUT /api/user": one("users:write"),
  "GET /api/user/search": one("users:read"),
  "POST /api/user/manage": one("users:write"),
  "GET /api/user/{id}": one("users:read"),
  "GET /api/user/{id}/2fa": one("users:read"),
  // the user card of the usage logs
  "GET /api/user/{id}/info": any("users:read", "logs:read"),
  "GET /api/user/{id}/ledger": one("users:read"),
  "GET /api/user/{id}/ledger/export": one("users:read"),
  "POST /api/user/{id}/sessions/revoke_all": one("users:write"),
  // tokens of others
  "GET /api/user/{id}/tokens": one("tokens:read"),
  // billing: codes, plans and subscriptions, top-up orders
  "GET /api/redemption": one("billing:read"),
  "POST /api/redemption": one("billing:write"),
  "PUT /api/redemption": one("billing:write"),
  "GET /api/redemption/search": one("billing:read"),
  "GET /api/redemption/{id}": one("billing:read"),
  "DELETE /api/redemption/{id}": one("billing:write"),
  "PUT /api/redemption/batch-disable": one("billing:write"),
  "GET /api/redemption/count-by-name": one("billing:read"),
  "DELETE /api/redemption/delete-by-name": one("billing:write"),
  "DELETE /api/redemption/delete-disabled": one("billing:write"),
  "GET /api/plan": one("billing:read"),
  "POST /api/plan": one("billing:write"),
  "PUT /api/plan": one("billing:write"),
  "DELETE /api/plan/{id}": one("billing:write"),
  "GET /api/plan/{id}/subscribers": one("billing:read"),
  "POST /api/user/{id}/plan": one("billing:write"),
  "DELETE /api/user/{id}/plan/{subscription_id}": one("billing:write"),
  "POST /api/user/{id}/plan/{subscription_id}/reset": one("billing:write"),
  "GET /api/user/topup": one("billing:topups"),
  "POST /api/user/topup/complete": one("billing:topups"),
  // logs and the usage data
  "GET /api/log": one("logs:read"),
  "DELETE /api/log": one("logs:delete"),
  "GET /api/log/stat": one("logs:read"),
  "GET /api/mj": one("logs:read"),
  "GET /api/task": one("logs:read"),
  "GET /api/data": one("logs:read"),
  "POST /api/data/refresh": one("logs:read"),
  "GET /api/data/state": one("logs:read"),
  "GET /api/data/summary": one("logs:read"),
  // messages
  "GET /api/admin/messages": one("messages:read"),
  "POST /api/admin/messages": one("messages:write"),
  "GET /api/admin/messages/search": one("messages:read"),
  "GET /api/admin/messages/{id}": one("messages:read"),
  "PUT /api/admin/messages/{id}": one("messages:write"),
  "DELETE /api/admin/messages/{id}": one("messages:write"),
  "GET /api/admin/messages/{id}/recipients": one("messages:read"),
  // settings: the option list feeds the settings page and the user editor's usage limits
  "GET /api/option": any(...SETTINGS_PERMISSIONS, "users:read"),
  "PUT /api/option": { anyOf: SETTINGS_PERMISSIONS, byInput: optionTab },
  "POST /api/option/preset_ratio/fetch": one("settings:operation"),
  "POST /api/option/preset_ratio/reset": one("settings:operation"),
  "GET /api/option/unset_models": one("settings:operation"),
  "POST /api/option/unset_models/fill": one("settings:operation"),
  "POST /api/option/update_check": one("settings:other"),
  "GET /api/model_mapping": one("settings:models"),
  "PUT /api/model_mapping": one("settings:models"),
  "POST /api/model_mapping/reload": one("settings:models"),
  // the audit log
  "GET /api/audit": one("audit:read"),
} as const satisfies Record<string, RouteRule>;

export type AdminRoute = keyof typeof ROUTE_PERMISSIONS;
