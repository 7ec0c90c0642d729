-- a user stops the Stripe renewal of a plan (docs/plans.md, "Cancelling the renewal"): a column only
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false;
