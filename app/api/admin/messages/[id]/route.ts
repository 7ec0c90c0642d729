// GET /api/admin/messages/{id}: one message with recipient and read counts (admin)
// PUT /api/admin/messages/{id}: edit title, format and content (admin)
// DELETE /api/admin/messages/{id}: delete the message and every recipient's record (admin)
import { route } from "@/lib/http/route";
import { idParams } from "@/lib/http/params";
import { deleteMessage } from "@/lib/messages/delete-message";
import { getMessage } from "@/lib/messages/get-message";
import { updateMessageBody } from "@/lib/messages/schemas";
import { updateMessage } from "@/lib/messages/update-message";

export const GET = route({ access: "admin", gate: "GET /api/admin/messages/{id}", params: idParams }, async ({ ctx, params }) =>
  getMessage({ ctx, input: params.id }),
);
export const PUT = route({ access: "admin", gate: "PUT /api/admin/messages/{id}", params: idParams, body: updateMessageBody }, async ({ ctx, params, body }) =>
  updateMessage({ ctx, input: { id: params.id, fields: body } }),
);
export const DELETE = route({ access: "admin", gate: "DELETE /api/admin/messages/{id}", params: idParams }, async ({ ctx, params }) =>
  deleteMessage({ ctx, input: params.id }),
);
