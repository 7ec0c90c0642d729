// GET /api/option/: the options the caller may read; secrets only as a set flag, to the root (admin; docs/settings.md)
import { z } from "zod";
import { route } from "@/lib/http/route";
import { listOptions } from "@/lib/options/list-options";
import { updateOption } from "@/lib/options/update-option";

export const GET = route({ access: "admin", gate: "GET /api/option" }, async ({ ctx }) => listOptions({ ctx }));

const optionBody = z.object({
  key: z.string({ error: "msg:invalid_parameter" }).min(1, "msg:invalid_parameter").max(200),
  value: z.string({ error: "msg:invalid_parameter" }).max(200_000),
});

// PUT /api/option/: save one option after validation; root-only keys refused to admins (admin; docs/settings.md)
export const PUT = route({ access: "admin", gate: "PUT /api/option", body: optionBody, demoBlocked: true }, async ({ ctx, body }) =>
  updateOption({ ctx, input: body }),
);
