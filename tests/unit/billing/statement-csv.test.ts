// The statement's CSV cells and USD amounts (lib/billing/csv.ts, lib/billing/ledger-kinds.ts).
import { describe, expect, it } from "vitest";
import { csvLine, csvText, UTF8_BOM } from "@/lib/billing/csv";
import { unitsToUsd } from "@/lib/billing/ledger-kinds";

describe("csvText", () => {
  it("leaves plain text alone", () => {
    expect(csvText("relay_settle")).toBe("relay_settle");
    expect(csvText("签到")).toBe("签到");
    expect(csvText("")).toBe("");
  });
  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvText("a,b")).toBe('"a,b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText("two\nlines")).toBe('"two\nlines"');
    expect(csvText("cr\rlf")).toBe('"cr\rlf"');
  });
  it("defuses spreadsheet formulas", () => {
    expect(csvText("=1+1")).toBe("'=1+1");
    expect(csvText("+1")).toBe("'+1");
    expect(csvText("-1")).toBe("'-1");
    expect(csvText("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvText("\tx")).toBe("'\tx");
    expect(csvText('=a,"b"')).toBe(`"'=a,""b"""`);
  });
  it("ends lines with CRLF and starts files with the BOM", () => {
    expect(csvLine(["1", "a"])).toBe("1,a\r\n");
    expect(UTF8_BOM).toBe("\uFEFF");
  });
});

describe("unitsToUsd", () => {
  it("is exact at 500000 units per dollar, with six decimals and a sign", () => {
    expect(unitsToUsd(500000n)).toBe("1.000000");
    expect(unitsToUsd(0n)).toBe("0.000000");
    expect(unitsToUsd(1n)).toBe("0.000002");
    expect(unitsToUsd(-86n)).toBe("-0.000172");
    expect(unitsToUsd(250000n)).toBe("0.500000");
    expect(unitsToUsd(9_223_372_036_854_775_807n)).toBe("18446744073709.551614");
    expect(unitsToUsd(-1_234_567_890n)).toBe("-2469.135780");
  });
});
