// The outbound policy's address classifier and the checks built on it (docs/outbound.md):
// every range on the classifier alone, without any connection.
import { afterEach, describe, expect, it } from "vitest";
import { ALLOWABLE_CLASSES, classifyAddress, classifyHost, normaliseHost, type AddressClass } from "@/lib/net/address";
import { guardedLookup, refusalFor, urlRefusal, ALLOW_PRIVATE_IP_OPTION } from "@/lib/net/outbound";
import { applyOption } from "@/lib/options/store";

const CASES: Record<AddressClass, string[]> = {
  public: [
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.167.255.255",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ],
  loopback: [
    "127.0.0.1",
    "127.255.255.254",
    "127.1.2.3",
    "::1",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:0:127.0.0.1",
    "::127.0.0.1",
    "64:ff9b::7f00:1",
    "2002:7f00:1::",
    "2001:0:4136:e378:8000:63bf:80ff:fffe",
  ],
  private: [
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "192.168.255.255",
    "100.64.0.1",
    "100.127.255.255",
    "198.18.0.1",
    "198.19.255.255",
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",
    "::ffff:10.1.2.3",
    "::ffff:192.168.1.1",
    "64:ff9b:1::a00:1",
    "2002:c0a8:101::1",
  ],
  link_local: ["169.254.0.1", "169.254.255.255", "fe80::1", "febf::1", "::ffff:169.254.1.1"],
  metadata: [
    "169.254.169.254",
    "169.254.170.2",
    "100.100.100.200",
    "fd00:ec2::254",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "64:ff9b::a9fe:a9fe",
    "2002:a9fe:a9fe::",
  ],
  unspecified: ["0.0.0.0", "0.1.2.3", "0.255.255.255", "::", "::ffff:0.0.0.0"],
  multicast: ["224.0.0.1", "239.255.255.255", "ff02::1", "ff0e::1", "::ffff:224.0.0.251"],
  broadcast: ["255.255.255.255", "::ffff:255.255.255.255"],
  reserved: [
    "240.0.0.1",
    "254.255.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "192.88.99.1",
    "2001:db8::1",
    "100::1",
    "::8.8.8.8",
    "4000::1",
  ],
};

describe("classifyAddress", () => {
  for (const [cls, addresses] of Object.entries(CASES)) {
    it(`${cls}: ${addresses.length} addresses`, () => {
      for (const a of addresses) expect(classifyAddress(a), a).toBe(cls);
    });
  }
  it("takes brackets and zones, and answers null for names", () => {
    expect(classifyAddress("[::1]")).toBe("loopback");
    expect(classifyAddress("fe80::1%eth0")).toBe("link_local");
    expect(classifyAddress("localhost")).toBeNull();
    expect(classifyAddress("example.com")).toBeNull();
    expect(classifyAddress("2130706433")).toBeNull(); // not an address as DNS writes one: see classifyHost
  });
  it("only loopback and private can be allowed", () => {
    expect([...ALLOWABLE_CLASSES].sort()).toEqual(["loopback", "private"]);
  });
});

describe("classifyHost: the odd IPv4 forms the URL parser normalises", () => {
  it.each([
    ["2130706433", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0xa9.0xfe.0xa9.0xfe", "169.254.169.254"],
    ["2852039166", "169.254.169.254"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["[0:0:0:0:0:0:0:1]", "::1"],
  ])("%s is %s", (host, normal) => {
    expect(normaliseHost(host)).toBe(normal);
    expect(classifyHost(host)).toBe(classifyAddress(normal));
    expect(classifyHost(host)).not.toBe("public");
  });
  it("answers null for names", () => {
    expect(classifyHost("localhost")).toBeNull();
    expect(classifyHost("api.openai.com")).toBeNull();
  });
});

describe("the policy", () => {
  afterEach(() => applyOption(ALLOW_PRIVATE_IP_OPTION, "false"));

  it("refuses loopback and private unless the option is on; the other classes always", () => {
    for (const cls of Object.keys(CASES) as AddressClass[]) {
      for (const a of CASES[cls]) expect(refusalFor(a)?.reason ?? "public", a).toBe(cls);
    }
    applyOption(ALLOW_PRIVATE_IP_OPTION, "true");
    for (const cls of Object.keys(CASES) as AddressClass[]) {
      const expected = cls === "loopback" || cls === "private" ? "public" : cls;
      for (const a of CASES[cls]) expect(refusalFor(a)?.reason ?? "public", a).toBe(expected);
    }
  });

  it("judges a URL by its scheme and its literal host in any form", () => {
    expect(urlRefusal("http://2130706433:8080/v1")?.reason).toBe("loopback");
    expect(urlRefusal("http://0x7f.0.0.1/")?.reason).toBe("loopback");
    expect(urlRefusal("http://[::ffff:a9fe:a9fe]/")?.reason).toBe("metadata");
    expect(urlRefusal("https://0/")?.reason).toBe("unspecified");
    expect(urlRefusal("file:///etc/passwd")?.reason).toBe("bad_url");
    expect(urlRefusal("gopher://example.com/")?.reason).toBe("bad_url");
    expect(urlRefusal("not a url")?.reason).toBe("bad_url");
    expect(urlRefusal("https://api.openai.com/v1")).toBeNull();
    expect(urlRefusal("http://localhost:11434")).toBeNull(); // a name: judged when connecting
  });

  it("refuses a name whose resolution is loopback (the lookup the agents connect with)", async () => {
    const lookup = (all: boolean) =>
      new Promise<{ err: (Error & { reason?: string }) | null; address: unknown }>((resolve) =>
        guardedLookup("localhost", { all }, (err, address) => resolve({ err: err as (Error & { reason?: string }) | null, address })),
      );
    expect((await lookup(false)).err?.reason).toBe("loopback");
    expect((await lookup(true)).err?.reason).toBe("loopback");
    applyOption(ALLOW_PRIVATE_IP_OPTION, "true");
    const ok = await lookup(true);
    expect(ok.err).toBeNull();
    expect((ok.address as Array<{ address: string }>).map((a) => a.address)).toContain("127.0.0.1");
    expect((await lookup(false)).err).toBeNull();
  });
});
