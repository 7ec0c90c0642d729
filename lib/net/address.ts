// The address classifier of the outbound policy (docs/outbound.md): which kind of network an
// IP address belongs to. Pure, no I/O, so every range is unit-tested without a connection.
// IPv6 forms that carry an IPv4 address (mapped, translated, compatible, NAT64, 6to4,
// Teredo) are judged by the IPv4 address they carry: ::ffff:127.0.0.1 is loopback.
import "server-only";
import { isIP, isIPv4 } from "node:net";

export type AddressClass =
  | "public"
  | "loopback" // 127/8, ::1
  | "private" // RFC 1918, CGNAT 100.64/10, benchmarking 198.18/15, fc00::/7, fec0::/10
  | "link_local" // 169.254/16, fe80::/10
  | "metadata" // cloud instance metadata: 169.254.169.254, 169.254.170.2, 100.100.100.200, fd00:ec2::254
  | "unspecified" // 0.0.0.0/8, ::
  | "multicast" // 224/4, ff00::/8
  | "broadcast" // 255.255.255.255
  | "reserved"; // 240/4, documentation and protocol ranges, anything outside 2000::/3

/** Classes the root may open to channels with fetch_setting.allow_private_ip; the rest never. */
export const ALLOWABLE_CLASSES: ReadonlySet<AddressClass> = new Set<AddressClass>(["loopback", "private"]);

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
const inV4 = (n: number, base: number, bits: number) => bits === 0 || n >>> (32 - bits) === base >>> (32 - bits);

const V4_METADATA = new Set([v4(169, 254, 169, 254), v4(169, 254, 170, 2), v4(100, 100, 100, 200)]);

// First match wins: the more specific ranges come before the ranges that contain them.
const V4_RANGES: Array<[number, number, AddressClass]> = [
  [v4(0, 0, 0, 0), 8, "unspecified"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "private"], // shared address space (CGNAT, also Tailscale)
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link_local"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "reserved"], // IETF protocol assignments
  [v4(192, 0, 2, 0), 24, "reserved"], // documentation
  [v4(192, 88, 99, 0), 24, "reserved"], // former 6to4 relay anycast
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "private"], // benchmarking
  [v4(198, 51, 100, 0), 24, "reserved"], // documentation
  [v4(203, 0, 113, 0), 24, "reserved"], // documentation
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(255, 255, 255, 255), 32, "broadcast"],
  [v4(240, 0, 0, 0), 4, "reserved"],
];

function classifyV4(n: number): AddressClass {
  if (V4_METADATA.has(n)) return "metadata";
  for (const [base, bits, cls] of V4_RANGES) if (inV4(n, base, bits)) return cls;
  return "public";
}

function parseV4(text: string): number {
  const p = text.split(".").map(Number);
  return v4(p[0], p[1], p[2], p[3]);
}

/** The eight 16-bit groups of a valid IPv6 text (zone and brackets already removed). */
function parseV6(text: string): number[] {
  let s = text;
  const lastColon = s.lastIndexOf(":");
  if (s.indexOf(".", lastColon) !== -1) {
    // a dotted IPv4 tail becomes its two groups
    const n = parseV4(s.slice(lastColon + 1));
    s = s.slice(0, lastColon + 1) + (n >>> 16).toString(16) + ":" + (n & 0xffff).toString(16);
  }
  const groups = (part: string) => (part ? part.split(":").map((x) => parseInt(x, 16)) : []);
  const gap = s.indexOf("::");
  if (gap === -1) return groups(s);
  const head = groups(s.slice(0, gap));
  const tail = groups(s.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function classifyV6(g: number[]): AddressClass {
  const v4At = (i: number) => ((g[i] << 16) | g[i + 1]) >>> 0;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 8)) return "unspecified";
  if (zero(0, 7) && g[7] === 1) return "loopback";
  if (zero(0, 5) && g[5] === 0xffff) return classifyV4(v4At(6)); // ::ffff:a.b.c.d (mapped)
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return classifyV4(v4At(6)); // ::ffff:0:a.b.c.d (translated)
  if (zero(0, 6)) {
    const c = classifyV4(v4At(6)); // ::a.b.c.d (compatible, deprecated)
    return c === "public" ? "reserved" : c;
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return classifyV4(v4At(6)); // NAT64 64:ff9b::/96
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) {
    const c = classifyV4(v4At(6)); // local-use NAT64 64:ff9b:1::/48
    return c === "public" ? "private" : c;
  }
  if (g[0] === 0x2002) return classifyV4(v4At(1)); // 6to4 2002:aabb:ccdd::/48
  if (g[0] === 0x2001 && g[1] === 0) return classifyV4(~v4At(6) >>> 0); // Teredo: client address inverted
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "reserved"; // documentation
  if (g[0] === 0xfd00 && g[1] === 0xec2 && zero(2, 7) && g[7] === 0x254) return "metadata"; // AWS IMDS over IPv6
  if ((g[0] & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return "link_local";
  if ((g[0] & 0xffc0) === 0xfec0) return "private"; // former site-local
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  if ((g[0] & 0xe000) === 0x2000) return "public"; // global unicast 2000::/3
  return "reserved";
}

/** The class of an IP address in its usual text (what DNS answers); null if it is not an IP. */
export function classifyAddress(ip: string): AddressClass | null {
  let s = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const zone = s.indexOf("%");
  if (zone !== -1) s = s.slice(0, zone);
  const family = isIP(s);
  if (family === 4) return classifyV4(parseV4(s));
  if (family === 6) return classifyV6(parseV6(s.toLowerCase()));
  return null;
}

/**
 * A URL host as the WHATWG URL parser reads it, so that 2130706433, 0x7f.0.0.1, 0177.1 and
 * 127.1 all become 127.0.0.1 (Node's HTTP clients parse URLs the same way). Null when the
 * text is not a valid host.
 */
export function normaliseHost(host: string): string | null {
  try {
    const h = new URL(`http://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}/`).hostname;
    return h.startsWith("[") ? h.slice(1, -1) : h;
  } catch {
    return null;
  }
}

/** The class of a URL host when it is an IP literal in any form the URL parser accepts; null for a name. */
export function classifyHost(host: string): AddressClass | null {
  const h = normaliseHost(host);
  if (h === null) return null;
  return isIPv4(h) || isIP(h) === 6 ? classifyAddress(h) : null;
}
