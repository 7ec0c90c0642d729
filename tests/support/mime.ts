// Reads what the test SMTP server received (tests/support/smtp.ts): the decoded subject and
// the decoded text/plain and text/html parts of a raw MIME message, enough for the tests to
// find a mailed code or link. Handles the encodings nodemailer writes: 7bit, quoted-printable
// and base64 bodies, RFC 2047 encoded-word subjects, multipart/alternative.

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const input = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < input.length; i++) {
    if (input[i] === "=" && /^[0-9A-F]{2}$/i.test(input.slice(i + 1, i + 3))) {
      bytes.push(parseInt(input.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(input[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(body: string, encoding: string): string {
  const enc = encoding.toLowerCase();
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (enc === "quoted-printable") return decodeQuotedPrintable(body);
  return body;
}

function headersOf(block: string): { headers: Record<string, string>; body: string } {
  const split = block.search(/\r?\n\r?\n/);
  const head = split < 0 ? block : block.slice(0, split);
  const body = split < 0 ? "" : block.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_w, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

export type ParsedMail = { subject: string; to: string; text: string; html: string };

export function parseMail(raw: string): ParsedMail {
  const top = headersOf(raw);
  const out: ParsedMail = { subject: decodeWords(top.headers.subject ?? ""), to: top.headers.to ?? "", text: "", html: "" };
  const walk = (headers: Record<string, string>, body: string) => {
    const type = (headers["content-type"] ?? "text/plain").toLowerCase();
    const boundary = /boundary="?([^";]+)"?/i.exec(headers["content-type"] ?? "")?.[1];
    if (type.startsWith("multipart/") && boundary) {
      for (const part of body.split(`--${boundary}`).slice(1)) {
        if (part.startsWith("--")) break;
        const p = headersOf(part.replace(/^\r?\n/, ""));
        walk(p.headers, p.body);
      }
      return;
    }
    const decoded = decodeBody(body, headers["content-transfer-encoding"] ?? "7bit");
    if (type.startsWith("text/plain")) out.text += decoded;
    else if (type.startsWith("text/html")) out.html += decoded;
  };
  walk(top.headers, top.body);
  return out;
}
