// POST /api/option/rest_model_ratio: model prices back to the server defaults, the preset price table (root)
import { route } from "@/lib/http/route";
import { resetModelRatio } from "@/lib/options/reset-model-ratio";

export const POST = route({ access: "root", demoBlocked: true }, async ({ ctx }) => resetModelRatio({ ctx }));
