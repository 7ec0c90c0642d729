// GET /api/option/: every option, the write-only secrets as "" with a set flag (root)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { listOptions } from "@/lib/options/list-options";
import { updateOption } from "@/lib/options/update-option";

export const GET = route({ access: "root" }, async ({ ctx }) => listOptions({ ctx }));

const optionBody = z.object({
  key: z.string({ error: "msg:invalid_parameter" }).min(1, "msg:invalid_parameter").max(200),
  value: z.string({ error: "msg:invalid_parameter" }).max(200_000),
});

// PUT /api/option/: save one option after validation (root)
export const PUT = route({ access: "root", body: optionBody, demoBlocked: true }, async ({ ctx, body }) => updateOption({ ctx, input: body }));
