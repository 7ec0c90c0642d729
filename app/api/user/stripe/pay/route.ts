// POST /api/user/stripe/pay: creates a pending Stripe order and its Checkout Session; answers {pay_link}
import { route } from "@/lib/http/route";
import { stripePayBody } from "@/lib/payments/schemas";
import { startStripePayment } from "@/lib/payments/start-stripe-payment";

export const POST = route({ access: "user", body: stripePayBody, rateLimit: "critical" }, async ({ ctx, body }) => startStripePayment({ ctx, input: body }));
