// A short device label from a browser's user agent ("Chrome on macOS"), for the session list
// (docs/accounts-api.md, "Sessions"). A small ordered mapping of the common browsers and
// systems instead of a user-agent library: the label is a hint for the user, not a fact
// the server relies on. Order matters: Edge and Opera also say "Chrome", Chrome also says
// "Safari", and iOS also says "like Mac OS X".
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bYaBrowser\//, "Yandex"],
  [/\bMicroMessenger\//, "WeChat"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
  [/^python-requests\/|^python-httpx\/|^aiohttp\//, "Python"],
  [/^node-fetch|^undici|^node\b/i, "Node.js"],
  [/\bPostmanRuntime\//, "Postman"],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bHarmonyOS\b/, "HarmonyOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

const pick = (table: Array<[RegExp, string]>, ua: string) => table.find(([re]) => re.test(ua))?.[1] ?? null;

/** "Browser on System", one of them, or "" when neither is known. */
export function deviceLabel(userAgent: string): string {
  const browser = pick(BROWSERS, userAgent);
  const system = pick(SYSTEMS, userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "";
}
