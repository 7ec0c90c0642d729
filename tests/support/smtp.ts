// A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps every message it
// receives, for the tests of mail (docs/mail.md). Accepts any login; plain connection with
// STARTTLS not offered, so nodemailer sends in clear on loopback.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; raw: string; auth?: { user: string; pass: string } };

export type TestSmtp = {
  port: number;
  received: ReceivedMail[];
  /** Waits until at least n messages arrived (or fails after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Makes the next messages fail with this SMTP reply code (0 to accept again). */
  rejectWith(code: number): void;
  close(): Promise<void>;
};

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let rejectCode = 0;
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onAuth(auth, _session, cb) {
      cb(null, { user: { user: auth.username ?? "", pass: auth.password ?? "" } });
    },
    onData(stream, session, cb) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (c: string) => (raw += c));
      stream.on("end", () => {
        if (rejectCode) return cb(Object.assign(new Error("refused by the test server"), { responseCode: rejectCode }));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          auth: session.user as ReceivedMail["auth"],
        });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    async waitFor(n, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} mails, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received;
    },
    rejectWith(code) {
      rejectCode = code;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
