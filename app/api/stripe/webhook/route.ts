// POST /api/stripe/webhook: Stripe's signed events; 400 on a bad signature, else {received: true}
import { PAYMENT_CALLBACK_MAX_BODY_BYTES } from "@/lib/http/body-limit";
import { route } from "@/lib/http/route";
import { BodyTooLargeError, readCappedText } from "@/lib/net/read-capped";
import { handleStripeCallback } from "@/lib/plans/callbacks";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });

export const POST = route({ access: "public" }, async ({ ctx, request }) => {
  let raw: string;
  try {
    raw = await readCappedText(request as unknown as Response, PAYMENT_CALLBACK_MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return json(413, { error: "body too large" });
    throw err;
  }
  const result = await handleStripeCallback({ ctx, input: { raw, signature: request.headers.get("stripe-signature") ?? "" } });
  return result === "bad_signature" ? json(400, { error: "invalid signature" }) : json(200, { received: true });
});
