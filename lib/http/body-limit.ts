// The size limit of console (/api/*) request bodies, enforced in server.ts while the body
// arrives, before Next reads any of it (docs/limits.md). route() applies the same limits
// again to what it reads (lib/http/route.ts).
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { requestLocale } from "@/lib/i18n/locale";
import { renderMessage } from "@/lib/i18n/server-messages";

export const CONSOLE_MAX_BODY_BYTES = 1024 * 1024;
// Routes that take more (their route() is given the same maxBodyBytes).
export const CHANNEL_MAX_BODY_BYTES = 4 * 1024 * 1024;
const LARGER: Record<string, number> = { "/api/channel": CHANNEL_MAX_BODY_BYTES };
// Payment callbacks are public and small: refused past 64 KiB (docs/payments.md).
export const PAYMENT_CALLBACK_MAX_BODY_BYTES = 64 * 1024;
const CALLBACKS: Record<string, number> = {
  "/api/user/epay/notify": PAYMENT_CALLBACK_MAX_BODY_BYTES,
  "/api/stripe/webhook": PAYMENT_CALLBACK_MAX_BODY_BYTES,
};

export function consoleBodyLimit(url: string): number {
  const q = url.indexOf("?");
  let path = q === -1 ? url : url.slice(0, q);
  if (path.length > 5 && path.endsWith("/")) path = path.slice(0, -1);
  return LARGER[path] ?? CALLBACKS[path] ?? CONSOLE_MAX_BODY_BYTES;
}

// true: go on at once (no body, or a declared length within the limit: the HTTP parser
// delivers no more than declared). false: either refused here with 413, or a chunked body
// that is held until it is complete and then handed on through `proceed`. A chunked body is
// counted chunk by chunk as the parser delivers it, and refused as soon as it passes the
// limit: the rest is never read, the answer closes the connection.
export function consoleBodyReady(req: IncomingMessage, res: ServerResponse, proceed: () => void): boolean {
  const declared = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (declared === undefined && !chunked) return true;
  const limit = consoleBodyLimit(req.url ?? "/");
  if (!chunked) {
    if (Number(declared) <= limit) return true;
    refuse(req, res);
    return false;
  }
  // The parser hands each piece of the body to req.push (node:_http_common). The pieces
  // are kept here instead, counted, and given to the stream only once the body is whole.
  const push = req.push;
  const held: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.push = (chunk: Buffer | null, encoding?: BufferEncoding): boolean => {
    if (refused) return true; // read and dropped while the connection lingers
    if (chunk === null) {
      req.push = push;
      for (const c of held) push.call(req, c);
      held.length = 0;
      push.call(req, null, encoding);
      process.nextTick(proceed);
      return false;
    }
    size += chunk.length;
    if (size > limit) {
      refused = true;
      held.length = 0;
      refuse(req, res);
      return true;
    }
    held.push(chunk);
    return true;
  };
  return false;
}

function refuse(req: IncomingMessage, res: ServerResponse): void {
  const locale = requestLocale(req.headers);
  const body = JSON.stringify({ success: false, message: renderMessage(locale, "body_too_large") });
  res.writeHead(413, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    connection: "close",
  });
  res.end(body);
  linger(req.socket);
}

// After the answer, what the client still sends is read and dropped for a moment before the
// connection closes: closing a socket with unread bytes resets it, and a client still
// writing its body would lose the answer with the reset. Node closes the connection as soon
// as the answer is written (socket.destroySoon); here it only half-closes it.
const LINGER_MS = 2000;
function linger(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
  };
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
