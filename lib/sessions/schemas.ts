// The zod schemas of the session routes (docs/accounts-api.md, "Sessions").
import { z } from "zod";

// a session id: 32 random bytes in base64url (lib/sessions/start.ts)
export const sessionIdParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "msg:session_not_found") });
