import { describe, expect, it } from "vitest";
import { applyOption } from "@/lib/options/store";
import { canUseGroup, usableGroups } from "@/lib/billing/groups";

describe("usable groups", () => {
  it("are UserUsableGroups plus the user's own group", () => {
    applyOption("UserUsableGroups", JSON.stringify({ default: "Default", vip: "VIP" }));
    expect(usableGroups("svip")).toEqual({ default: "Default", vip: "VIP", svip: "svip" });
    expect(usableGroups("vip")).toEqual({ default: "Default", vip: "VIP" });
    // the cached option itself is never changed by a user's own group
    expect(usableGroups("default")).toEqual({ default: "Default", vip: "VIP" });
    expect(canUseGroup("svip", "svip")).toBe(true);
    expect(canUseGroup("default", "vip")).toBe(true);
    expect(canUseGroup("default", "svip")).toBe(false);
  });

  it("never by way of the object prototype", () => {
    applyOption("UserUsableGroups", JSON.stringify({ default: "Default" }));
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) expect(canUseGroup("default", name)).toBe(false);
    // a user whose own group has such a name still gets it listed
    expect(usableGroups("toString")).toEqual({ default: "Default", toString: "toString" });
    // a group named __proto__ in the option is listed as a group, not lost to the prototype
    applyOption("UserUsableGroups", '{"default":"Default","__proto__":"Odd"}');
    expect(Object.hasOwn(usableGroups("default"), "__proto__")).toBe(true);
  });
});
