// The one quota display rule of the console (docs/console-ui.md, "Quota display"): how an
// amount of quota units is shown, how a typed amount becomes units, and the text that
// prefills an input. Client-safe and exact: units are BigInt, the rates and QuotaPerUnit are
// read as decimal fractions, and nothing passes through a float.
//
// - DisplayInCurrencyEnabled off: units, shortened (k from ten thousand, M from a million, B
//   from a billion, one decimal).
// - On: currency, 2 decimals, in the currency QuotaDisplayType names: USD ("$", 1 per
//   dollar), CNY ("¥", USDExchangeRate per dollar) or CUSTOM (CustomCurrencySymbol,
//   CustomCurrencyExchangeRate per dollar); QuotaPerUnit units are one dollar. A non-zero
//   amount that would show as zero gets the decimals its first two significant digits need.
// - Typed amounts are rounded to the nearest unit, halves away from zero.

export type QuotaCurrency = "USD" | "CNY" | "CUSTOM";
export const QUOTA_CURRENCIES: readonly QuotaCurrency[] = ["USD", "CNY", "CUSTOM"];
export const DEFAULT_QUOTA_PER_UNIT = 500000; // 500000 quota units = 1 USD

/** How quota is shown; `currency`, `rate` and `symbol` default to US dollars. */
export type QuotaDisplay = {
  displayInCurrency: boolean;
  quotaPerUnit: number;
  /** the currency shown when displayInCurrency is on (QuotaDisplayType) */
  currency?: QuotaCurrency;
  /** units of that currency per US dollar (1 for USD) */
  rate?: number;
  /** its symbol ("$", "¥", or the custom one) */
  symbol?: string;
};

/** The part of the public site status (lib/status/site-status.ts) the rule reads. */
export type QuotaStatus = {
  quota_per_unit: number;
  display_in_currency: boolean;
  quota_display_type?: string;
  usd_exchange_rate?: number;
  custom_currency_symbol?: string;
  custom_currency_exchange_rate?: number;
};

/** The display of a site status. */
export function quotaDisplayOf(s: QuotaStatus): QuotaDisplay {
  const currency: QuotaCurrency = s.quota_display_type === "CNY" || s.quota_display_type === "CUSTOM" ? s.quota_display_type : "USD";
  const rate = currency === "CNY" ? (s.usd_exchange_rate ?? 7.3) : currency === "CUSTOM" ? (s.custom_currency_exchange_rate ?? 1) : 1;
  const symbol = currency === "CNY" ? "¥" : currency === "CUSTOM" ? s.custom_currency_symbol || "¤" : "$";
  return { displayInCurrency: s.display_in_currency, quotaPerUnit: s.quota_per_unit, currency, rate, symbol };
}

// ---- exact decimal arithmetic ----

type Fraction = { n: bigint; d: bigint };

const TEN = BigInt(10);
const ZERO = BigInt(0);
const ONE = BigInt(1);
const TWO = BigInt(2);
const pow10 = (k: number) => TEN ** BigInt(k);

/** A decimal number (a JS number's own shortest text, or a decimal string) as an exact fraction. */
export function toFraction(value: number | string | bigint): Fraction | null {
  if (typeof value === "bigint") return { n: value, d: ONE };
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return null;
  const frac = m[3] ?? "";
  let n = BigInt((m[2] || "0") + frac);
  let d = pow10(frac.length);
  const exp = m[4] ? Number(m[4]) : 0;
  if (Math.abs(exp) > 400) return null;
  if (exp > 0) n *= pow10(exp);
  else if (exp < 0) d *= pow10(-exp);
  if (m[1] === "-") n = -n;
  return { n, d };
}

/** n / d rounded to an integer, halves away from zero (d > 0). */
function roundDiv(n: bigint, d: bigint): bigint {
  const neg = n < ZERO;
  const a = neg ? -n : n;
  const q = (TWO * a + d) / (TWO * d);
  return neg ? -q : q;
}

/** A scaled integer (value × 10^decimals) as decimal text, e.g. 250n with 2 → "2.50". */
function scaledText(scaled: bigint, decimals: number): string {
  const neg = scaled < ZERO;
  const digits = (neg ? -scaled : scaled).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const text = decimals > 0 ? `${whole}.${digits.slice(digits.length - decimals)}` : whole;
  return neg ? `-${text}` : text;
}

const asUnits = (units: bigint | number | string): bigint => {
  if (typeof units === "bigint") return units;
  if (typeof units === "number") return Number.isFinite(units) ? BigInt(Math.round(units)) : ZERO;
  return /^-?\d+$/.test(units.trim()) ? BigInt(units.trim()) : ZERO;
};

/** Currency per unit as a fraction: rate / QuotaPerUnit (null when the settings make no sense). */
function currencyPerUnit(display: QuotaDisplay): Fraction | null {
  const per = toFraction(display.quotaPerUnit) ?? toFraction(DEFAULT_QUOTA_PER_UNIT)!;
  const rate = toFraction(display.rate ?? 1);
  if (!rate || per.n <= ZERO || rate.n <= ZERO) return null;
  return { n: rate.n * per.d, d: rate.d * per.n };
}

function symbolOf(display: QuotaDisplay): string {
  return display.symbol ?? "$";
}

/** An amount of currency (units × rate / QuotaPerUnit) with `digits` decimals, or the tiny-amount rule's. */
function currencyText(units: bigint, display: QuotaDisplay, digits: number): string {
  const cpu = currencyPerUnit(display) ?? { n: ONE, d: BigInt(DEFAULT_QUOTA_PER_UNIT) };
  const n = units * cpu.n;
  let scaled = roundDiv(n * pow10(digits), cpu.d);
  let decimals = digits;
  // a non-zero amount that shows as zero: the decimals its first two significant digits need
  if (scaled === ZERO && n !== ZERO) {
    while (decimals < 30) {
      decimals += 1;
      scaled = roundDiv(n * pow10(decimals), cpu.d);
      const abs = scaled < ZERO ? -scaled : scaled;
      if (abs >= BigInt(10)) break;
    }
    return trimZeros(scaledText(scaled, decimals));
  }
  return scaledText(scaled, decimals);
}

const trimZeros = (text: string) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);

/** Units grouped by thousands: 1250000 → "1,250,000". */
export function groupUnits(units: bigint | number | string): string {
  const u = asUnits(units);
  const neg = u < ZERO;
  const text = (neg ? -u : u).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return neg ? `-${text}` : text;
}

/** Shortened units: k from ten thousand, M from a million, B from a billion (one decimal). */
export function shortenUnits(units: bigint | number | string): string {
  const u = asUnits(units);
  const abs = u < ZERO ? -u : u;
  const step =
    abs >= BigInt(1e9) ? { d: BigInt(1e9), s: "B" } : abs >= BigInt(1e6) ? { d: BigInt(1e6), s: "M" } : abs >= BigInt(1e4) ? { d: BigInt(1e3), s: "k" } : null;
  if (!step) return u.toString();
  return scaledText(roundDiv(u * TEN, step.d), 1) + step.s;
}

/** An amount in the display currency with its symbol ("$2.50", "-¥0.01"), whatever the switch says. */
export function formatCurrency(units: bigint | number | string, display: QuotaDisplay, digits = 2): string {
  const text = currencyText(asUnits(units), display, digits);
  return text.startsWith("-") ? `-${symbolOf(display)}${text.slice(1)}` : `${symbolOf(display)}${text}`;
}

/**
 * The one display rule: currency with `digits` decimals (2 unless said) when the site displays
 * currency, else shortened units.
 */
export function formatQuota(units: bigint | number | string, display: QuotaDisplay, digits = 2): string {
  return display.displayInCurrency ? formatCurrency(units, display, digits) : shortenUnits(units);
}

/** The unit an input takes: the currency symbol, or null for raw units. */
export function inputUnit(display: QuotaDisplay): string | null {
  return display.displayInCurrency ? symbolOf(display) : null;
}

export type QuotaParseError = "empty" | "invalid" | "negative" | "too_large";
export type QuotaParse = { ok: true; units: bigint } | { ok: false; error: QuotaParseError };

const MAX_UNITS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A typed amount in the display unit as exact units: currency (the symbol, spaces, commas and
 * underscores are ignored; any number of decimals) rounded to the nearest unit, halves away
 * from zero; or whole units. Negative amounts are refused unless `allowNegative`; more than
 * `max` units (the largest safe integer unless said) is "too_large".
 */
export function parseQuotaInput(text: string, display: QuotaDisplay, opts: { allowNegative?: boolean; max?: bigint } = {}): QuotaParse {
  let t = text.replace(/[\s,_]/g, "");
  const symbol = symbolOf(display);
  if (display.displayInCurrency && symbol) t = t.replace(symbol, "");
  if (t === "") return { ok: false, error: "empty" };
  let units: bigint;
  if (display.displayInCurrency) {
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(t)) return { ok: false, error: "invalid" };
    const amount = toFraction(t);
    const cpu = currencyPerUnit(display);
    if (!amount || !cpu) return { ok: false, error: "invalid" };
    // units = amount / (currency per unit)
    units = roundDiv(amount.n * cpu.d, amount.d * cpu.n);
  } else {
    if (!/^[+-]?\d+$/.test(t)) return { ok: false, error: "invalid" };
    units = BigInt(t);
  }
  if (units < ZERO && !opts.allowNegative) return { ok: false, error: "negative" };
  const max = opts.max ?? MAX_UNITS;
  if ((units < ZERO ? -units : units) > max) return { ok: false, error: "too_large" };
  return { ok: true, units };
}

/**
 * The text that prefills an input for `units`: whole units, or the shortest currency amount
 * (at least 2 decimals, trailing zeros dropped) that parses back to exactly these units.
 */
export function quotaToInput(units: bigint | number | string, display: QuotaDisplay): string {
  const u = asUnits(units);
  if (!display.displayInCurrency) return u.toString();
  const cpu = currencyPerUnit(display);
  if (!cpu) return u.toString();
  const n = u * cpu.n;
  let text = "";
  for (let decimals = 2; decimals <= 30; decimals += 1) {
    text = scaledText(roundDiv(n * pow10(decimals), cpu.d), decimals);
    const back = parseQuotaInput(text, display, { allowNegative: true, max: u < ZERO ? -u : u });
    if (back.ok && back.units === u) break;
  }
  return trimZeros(text);
}
