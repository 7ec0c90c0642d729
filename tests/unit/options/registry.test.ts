// The option registry (lib/options/registry.ts, docs/options.md "Adding an option"): one
// entry per key, from which the defaults, the access table and the value rules are derived,
// and whose keys are the only names getOption takes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROLE } from "@/lib/auth/roles";
import { canReadOption, canWriteOption } from "@/lib/options/access";
import { OPTION_DEFAULTS } from "@/lib/options/defaults";
import { isOptionKey, OPTION_KEYS, optionSpec, type OptionKey } from "@/lib/options/registry";
import { checkOptionValue, PAYMENT_KEYS, SECRET_OPTION_KEYS } from "@/lib/options/rules";
import { getOption } from "@/lib/options/store";

describe("the option registry", () => {
  it("names its keys as a type: a misspelt key does not compile", () => {
    // @ts-expect-error "QuotaPerUnitt" is not a registered option
    const misspelt = () => getOption("QuotaPerUnitt");
    // @ts-expect-error neither is an inherited name
    const inherited: OptionKey = "constructor";
    expect(typeof misspelt).toBe("function");
    expect(isOptionKey(inherited)).toBe(false);
    expect(getOption("QuotaPerUnit")).toBe("500000");
  });

  it("knows only its own keys, not the names every object inherits", () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "NoSuchKey", ""]) expect(isOptionKey(name), name).toBe(false);
    for (const key of OPTION_KEYS) expect(isOptionKey(key), key).toBe(true);
    expect(Object.keys(OPTION_DEFAULTS).sort()).toEqual([...OPTION_KEYS].sort());
  });

  it("gives every key a default that passes its own rule", () => {
    for (const key of OPTION_KEYS) {
      // ModelRequestRateLimitCount starts at -1 (docs/product-rules.md); an admin may only set >= 0
      if (key === "ModelRequestRateLimitCount") continue;
      expect(checkOptionValue(key, OPTION_DEFAULTS[key]).ok, `${key}=${OPTION_DEFAULTS[key]}`).toBe(true);
    }
  });

  it("derives the access table: secrets and root-only keys from their entries", () => {
    for (const key of OPTION_KEYS) {
      const spec = optionSpec(key);
      expect(canWriteOption(key, ROLE.root), key).toBe(true);
      expect(canWriteOption(key, ROLE.admin), key).toBe(spec.write === "admin");
      expect(canWriteOption(key, ROLE.user), key).toBe(false);
      expect(canReadOption(key, ROLE.admin), key).toBe(!spec.secret);
      expect(SECRET_OPTION_KEYS.has(key), key).toBe(spec.secret === true);
      expect(PAYMENT_KEYS.has(key), key).toBe(spec.payment === true);
      // a secret is written by the root alone and is never a switch or a number
      if (spec.secret) expect([spec.write, spec.rule.kind], key).toEqual(["root", "text"]);
    }
    expect(SECRET_OPTION_KEYS.size).toBe(12);
  });

  it("types switches by their entry, not by how their name ends", () => {
    expect(optionSpec("global.auto_retry_force_channel_switch").rule.kind).toBe("bool");
    expect(optionSpec("fetch_setting.allow_private_ip").rule.kind).toBe("bool");
    expect(checkOptionValue("global.auto_retry_force_channel_switch", "maybe")).toEqual({
      ok: false,
      key: "option_not_boolean",
      params: { key: "global.auto_retry_force_channel_switch" },
    });
  });

  it("records the settings tab docs/options.md names for each key", () => {
    const doc = readFileSync("docs/options.md", "utf8").split("\n## Where each key is edited\n")[1];
    let rows = 0;
    for (const line of doc.split("\n")) {
      const m = /^\| `([^`]+)` \| (\w+) \|/.exec(line);
      if (!m) continue;
      rows++;
      expect(isOptionKey(m[1]), m[1]).toBe(true);
      if (isOptionKey(m[1])) expect(optionSpec(m[1]).tab, m[1]).toBe(m[2]);
    }
    expect(rows).toBeGreaterThan(100);
  });
});
