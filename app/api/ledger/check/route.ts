// GET /api/ledger/check: every user's balance against its ledger, every token's usage against its relay movements (root)
import { route } from "@/lib/http/route";
import { checkLedger } from "@/lib/billing/ledger-check";

export const GET = route({ access: "root" }, async ({ ctx }) => checkLedger({ ctx }));
