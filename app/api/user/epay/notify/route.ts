// GET|POST /api/user/epay/notify: the epay provider's signed payment notice (a top-up or a plan order); answers "success" or "fail" as plain text
import { PAYMENT_CALLBACK_MAX_BODY_BYTES } from "@/lib/http/body-limit";
import { route } from "@/lib/http/route";
import { BodyTooLargeError, readCappedText } from "@/lib/net/read-capped";
import { handlePaymentNotify } from "@/lib/plans/callbacks";

const text = (body: "success" | "fail") =>
  new Response(body, { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

// The query's parameters, and for a POST those of its form body (which win).
async function notifyParams(request: Request): Promise<Record<string, string> | null> {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  if (request.method !== "POST") return params;
  try {
    const body = await readCappedText(request as unknown as Response, PAYMENT_CALLBACK_MAX_BODY_BYTES);
    return Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
  } catch (err) {
    if (err instanceof BodyTooLargeError) return null;
    throw err;
  }
}

const notify = route({ access: "public" }, async ({ ctx, request }) => {
  const params = await notifyParams(request);
  if (!params) return new Response("fail", { status: 413, headers: { "content-type": "text/plain; charset=utf-8" } });
  return text(await handlePaymentNotify({ ctx, input: { params } }));
});

export const GET = notify;
export const POST = notify;
