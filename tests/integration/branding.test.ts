// Branding, content and network options over HTTP (docs/options.md, "Branding", "Rebate and
// invitation", "Network and payment"): what a page's HTML carries for SystemName, Logo,
// HomePageContent, About, Footer, custom_head_html, global_css and global_js (Markdown
// rendered, HTML sanitized, a URL framed); /logo.png; AffEnabled on the server; the client
// address behind a declared reverse proxy (ReverseProxyEnabled / ReverseProxyProvider).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser, setOptions, setupRoot } from "../support/accounts";
import { ApiClient } from "../support/client";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
let root: ApiClient;
beforeAll(async () => {
  server = await startServer();
  root = await setupRoot(server);
});
afterAll(async () => {
  await server?.stop();
});

const page = async (path: string) => {
  const res = await fetch(server.url + path, { headers: { cookie: "NEXT_LOCALE=en" } });
  expect(res.status).toBe(200);
  return res.text();
};

// The HTML of a page without Next's flight data (the RSC payload repeats props as JSON).
const markup = (html: string) => html.replace(/<script>self\.__next_f[\s\S]*?<\/script>/g, "");

const EVIL = `<script>window.evil=1</script><img src="/x.png" onerror="window.evil=2"><a href="javascript:window.evil=3">bad link</a><a href="https://example.com/ok" onclick="window.evil=4">good link</a>`;

describe("logo and name", () => {
  it("serves /logo.png as a real PNG and uses it as the default logo and icon", async () => {
    const res = await fetch(server.url + "/logo.png");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(bytes.length).toBeGreaterThan(500);
    const html = await page("/about");
    expect(html).toMatch(/<link rel="icon" href="\/logo.png"/);
    expect(html).toMatch(/<img src="\/logo.png"[^>]*data-testid="site-logo"/);
  });

  it("SystemName and Logo name the title, the icon and the top bar", async () => {
    await setOptions(root, { SystemName: "Acme Relay", Logo: "https://cdn.example.com/acme.png" });
    const html = await page("/pricing");
    expect(html).toContain("<title>Model pricing | Acme Relay</title>");
    expect(html).toMatch(/<link rel="icon" href="https:\/\/cdn.example.com\/acme.png"/);
    expect(html).toMatch(/<img src="https:\/\/cdn.example.com\/acme.png"[^>]*data-testid="site-logo"/);
    expect(markup(html)).toContain(">Acme Relay</span>");
    await setOptions(root, { SystemName: "AI Gateway", Logo: "" });
  });
});

describe("HomePageContent and About", () => {
  it("renders Markdown, and sanitizes the HTML in it", async () => {
    await setOptions(root, { HomePageContent: `# Welcome **home**\n\n- one\n- two\n\n${EVIL}` });
    const html = markup(await page("/"));
    expect(html).toContain("<h1>Welcome <strong>home</strong></h1>");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("good link</a>");
    expect(html).toContain("bad link</a>");
    expect(html).not.toContain("window.evil");
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/onerror|onclick/i);
  });

  it("shows a URL in a frame", async () => {
    await setOptions(root, { HomePageContent: "https://intro.example.com/page", About: "https://about.example.com/" });
    expect(await page("/")).toMatch(/<iframe src="https:\/\/intro.example.com\/page"/);
    expect(await page("/about")).toMatch(/<iframe src="https:\/\/about.example.com\/"/);
  });

  it("About renders Markdown and sanitized HTML; empty falls back to the default page", async () => {
    await setOptions(root, { About: `## About us\n\n<div class="team">Our <em>team</em></div>${EVIL}` });
    const html = markup(await page("/about"));
    expect(html).toContain("<h2>About us</h2>");
    expect(html).toContain('<div class="team">Our <em>team</em></div>');
    expect(html).not.toContain("window.evil");
    await setOptions(root, { About: "", HomePageContent: "" });
    expect(markup(await page("/about"))).toContain("The admin has not written an About page yet");
    expect(markup(await page("/"))).toMatch(/Welcome to (<!-- -->)?AI Gateway/);
  });
});

describe("Footer", () => {
  it("shows the powered-by line by default, and the admin's footer HTML sanitized", async () => {
    expect(markup(await page("/about"))).toMatch(/data-testid="powered-by">Powered by/);
    await setOptions(root, { Footer: `<p>© 2026 <b>Acme</b></p>\n\n<p>second</p>${EVIL}` });
    const html = markup(await page("/about"));
    expect(html).toContain("© 2026 <b>Acme</b>");
    expect(html).toContain("<p>second</p>");
    expect(html).not.toContain('data-testid="powered-by"');
    expect(html).not.toContain("window.evil");
    expect(html).not.toMatch(/javascript:/i);
    await setOptions(root, { Footer: "" });
  });
});

describe("custom_head_html, global_css and global_js", () => {
  it("are injected into every page, each kept inside its own element", async () => {
    expect(await page("/about")).not.toMatch(/id="(custom-head-html|global-css|global-js)"/);
    await setOptions(root, {
      custom_head_html: '<meta name="acme-verification" content="abc123"></script><b>',
      global_css: "body { --acme: 1; } </style><script>window.cssEscape=1</script>",
      global_js: 'window.acmeGlobal = "</script><b>x</b>";',
    });
    for (const path of ["/", "/about", "/login"]) {
      const html = await page(path);
      // the head HTML travels as a JSON string, "<" escaped: it cannot close the script early
      expect(html).toContain('<script id="custom-head-html">');
      expect(html).toContain('\\u003cmeta name=\\"acme-verification\\" content=\\"abc123\\">\\u003c/script>\\u003cb>');
      expect(html).toContain('<style id="global-css">body { --acme: 1; } <\\/style><script>window.cssEscape=1</script></style>');
      expect(html).toContain('<script id="global-js">window.acmeGlobal = "<\\/script><b>x</b>";</script>');
      // the head HTML and the CSS are in <head>, the script at the end of <body>
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head).toContain('id="custom-head-html"');
      expect(head).toContain('id="global-css"');
      expect(head).not.toContain('id="global-js"');
    }
    await setOptions(root, { custom_head_html: "", global_css: "", global_js: "" });
  });
});

describe("AffEnabled", () => {
  it("off: no invitation code, no transfer, and a code at registration rewards nobody", async () => {
    const inviter = await makeUser(server, root, "inviter");
    await setOptions(root, { QuotaForInviter: "7000", QuotaForInvitee: "3000", QuotaForNewUser: "0" });
    const code = (await inviter.client.get<string>("/api/user/aff")).data;
    expect(code).toMatch(/^[A-Za-z0-9]{8}$/);

    await setOptions(root, { AffEnabled: "false" });
    const refused = await inviter.client.get("/api/user/aff");
    expect(refused).toMatchObject({ success: false, message: "Invitations are turned off by the admin" });
    const zh = await (await loginZh("inviter")).get("/api/user/aff");
    expect(zh.message).toBe("管理员未开启邀请功能");
    expect((await inviter.client.post("/api/user/aff_transfer", { quota: 500000 })).message).toBe("Invitations are turned off by the admin");
    const off = await new ApiClient(server.url).post<{ quota: number; inviter_id: number }>("/api/user/register", {
      username: "guest1",
      password: "12345678",
      password2: "12345678",
      aff_code: code,
    });
    expect(off.success).toBe(true);
    expect(off.data).toMatchObject({ quota: 0, inviter_id: 0 });
    expect((await inviter.client.get<{ aff_count: number; aff_quota: number }>("/api/user/self")).data).toMatchObject({ aff_count: 0, aff_quota: 0 });
    expect((await root.get<{ aff_enabled: boolean }>("/api/status")).data.aff_enabled).toBe(false);

    await setOptions(root, { AffEnabled: "true" });
    const on = await new ApiClient(server.url).post<{ quota: number; inviter_id: number }>("/api/user/register", {
      username: "guest2",
      password: "12345678",
      password2: "12345678",
      aff_code: code,
    });
    expect(on.data).toMatchObject({ quota: 3000, inviter_id: inviter.id });
    expect((await inviter.client.get<{ aff_count: number; aff_quota: number }>("/api/user/self")).data).toMatchObject({ aff_count: 1, aff_quota: 7000 });
  });
});

async function loginZh(username: string) {
  const c = new ApiClient(server.url, "zh");
  await c.login(username, "user-pass-1");
  return c;
}

describe("ReverseProxyEnabled and ReverseProxyProvider", () => {
  // A token usable only from 203.0.113.7: whether GET /v1/models lets it through shows which
  // address the server took for the client.
  let key = "";
  const models = (headers: Record<string, string>) =>
    fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}`, ...headers } }).then((r) => r.status);
  beforeAll(async () => {
    const owner = await makeUser(server, root, "proxied");
    const r = await owner.client.post<{ key: string }[]>("/api/token/", { name: "ip-bound", remain_quota: 1000, allow_ips: "203.0.113.7" });
    key = r.data[0].key;
  });

  it("off: no header is believed, the socket's address is the client's", async () => {
    await setOptions(root, { ReverseProxyEnabled: "false" });
    expect(await models({ "x-forwarded-for": "203.0.113.7" })).toBe(403);
    expect(await models({ "cf-connecting-ip": "203.0.113.7" })).toBe(403);
    expect(await models({ "x-gateway-client-ip": "203.0.113.7" })).toBe(403);
  });

  it("nginx: the last X-Forwarded-For entry (the one nginx appended) is the client", async () => {
    await setOptions(root, { ReverseProxyEnabled: "true", ReverseProxyProvider: "nginx" });
    expect(await models({ "x-forwarded-for": "203.0.113.7" })).toBe(200);
    expect(await models({ "x-forwarded-for": "198.51.100.1, 203.0.113.7" })).toBe(200);
    // a client-forged first entry does not count
    expect(await models({ "x-forwarded-for": "203.0.113.7, 198.51.100.1" })).toBe(403);
    expect(await models({ "cf-connecting-ip": "203.0.113.7" })).toBe(403);
  });

  it("cloudflare: CF-Connecting-IP is the client, X-Forwarded-For is not", async () => {
    await setOptions(root, { ReverseProxyEnabled: "true", ReverseProxyProvider: "cloudflare" });
    expect(await models({ "cf-connecting-ip": "203.0.113.7" })).toBe(200);
    expect(await models({ "x-forwarded-for": "203.0.113.7" })).toBe(403);
    await setOptions(root, { ReverseProxyEnabled: "false", ReverseProxyProvider: "nginx" });
  });
});

describe("DisplayTokenStatEnabled", () => {
  // GET /v1/dashboard/billing/{subscription,usage}: the token's figures when on, its owner's when off.
  let key = "";
  let unlimitedKey = "";
  const billing = async (what: string, k = key) =>
    (await fetch(`${server.url}/v1/dashboard/billing/${what}`, { headers: { authorization: `Bearer ${k}` } })).json() as Promise<Record<string, unknown>>;
  beforeAll(async () => {
    await setOptions(root, { QuotaForNewUser: "1000000" });
    const anon = new ApiClient(server.url);
    expect((await anon.post("/api/user/register", { username: "statuser", password: "12345678", password2: "12345678" })).success).toBe(true);
    await setOptions(root, { QuotaForNewUser: "0" });
    const owner = new ApiClient(server.url);
    await owner.login("statuser", "12345678");
    key = (await owner.post<{ key: string }[]>("/api/token/", { name: "stat", remain_quota: 250000 })).data[0].key;
    unlimitedKey = (await owner.post<{ key: string }[]>("/api/token/", { name: "stat-unlimited", unlimited_quota: true })).data[0].key;
  });

  it("on: the token's quota and expiry; off: the owner's balance", async () => {
    await setOptions(root, { DisplayTokenStatEnabled: "true", DisplayInCurrencyEnabled: "false" });
    expect(await billing("subscription")).toEqual({
      object: "billing_subscription",
      has_payment_method: true,
      soft_limit_usd: 250000,
      hard_limit_usd: 250000,
      system_hard_limit_usd: 250000,
      access_until: 0,
    });
    expect(await billing("usage")).toEqual({ object: "list", total_usage: 0 });
    expect((await billing("subscription", unlimitedKey)).hard_limit_usd).toBe(100000000);

    await setOptions(root, { DisplayTokenStatEnabled: "false" });
    expect((await billing("subscription")).hard_limit_usd).toBe(1000000);
    expect((await billing("subscription", unlimitedKey)).hard_limit_usd).toBe(1000000);

    // in dollars when the console shows currency (500000 units = $1)
    await setOptions(root, { DisplayInCurrencyEnabled: "true" });
    expect((await billing("subscription")).hard_limit_usd).toBe(2);
    await setOptions(root, { DisplayTokenStatEnabled: "true" });
    expect((await billing("subscription")).hard_limit_usd).toBe(0.5);
  });
});
