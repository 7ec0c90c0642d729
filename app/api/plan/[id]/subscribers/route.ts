// GET /api/plan/{id}/subscribers?status=active|expired|cancelled|revoked|all: a plan's subscribers (admin)
import { idParams } from "@/lib/http/params";
import { route } from "@/lib/http/route";
import { subscribersQuery } from "@/lib/plans/schemas";
import { listSubscribers } from "@/lib/plans/subscriptions";

export const GET = route(
  { access: "admin", gate: "GET /api/plan/{id}/subscribers", params: idParams, query: subscribersQuery },
  async ({ ctx, params, query }) => listSubscribers({ ctx, input: { id: params.id, status: query.status } }),
);
