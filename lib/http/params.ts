// Path parameter schemas for route({ params }). A bad path parameter answers the same
// envelope message as any other bad parameter ("msg:" keys, docs/conventions.md).
import { z } from "zod";

export const idParams = z.object({
  id: z.coerce.number({ error: "msg:invalid_parameter" }).int("msg:invalid_parameter").positive("msg:invalid_parameter"),
});
