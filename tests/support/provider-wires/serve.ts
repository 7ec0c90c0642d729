// A provider wire served by a real node:http server on loopback: every request recorded (its
// body read whole and parsed as JSON when it is JSON), then handed to the wire's handler; a
// handler that throws answers 500 with the error.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { WireRequest } from "./types";

export interface WireServer {
  /** "http://127.0.0.1:port" */
  url: string;
  requests: WireRequest[];
  close(): Promise<void>;
}

export async function serveWire(handle: (req: WireRequest, res: http.ServerResponse) => void | Promise<void>): Promise<WireServer> {
  const requests: WireRequest[] = [];
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let json: unknown;
      try {
        json = body.length ? JSON.parse(body.toString("utf8")) : undefined;
      } catch {
        json = undefined;
      }
      const r: WireRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, json };
      requests.push(r);
      Promise.resolve()
        .then(() => handle(r, res))
        .catch((e) => {
          if (!res.headersSent) res.writeHead(500);
          res.end(String(e));
        });
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => srv.close(() => r())),
  };
}
