import { describe, expect, it } from "vitest";
import { checkDeleteConfirm, checkTransfer } from "@/lib/client/validation";

describe("client checks of the input limits", () => {
  it("account deletion needs the exact username", () => {
    expect(checkDeleteConfirm("Alice", "alice")).toBe("deleteConfirmMismatch");
    expect(checkDeleteConfirm("alice ", "alice")).toBe("deleteConfirmMismatch");
    expect(checkDeleteConfirm("alice", "alice")).toBeNull();
  });
  it("transfer needs at least one quota unit", () => {
    expect(checkTransfer(499999, 500000)).toBe("transferMin");
    expect(checkTransfer(Number.NaN, 500000)).toBe("transferMin");
    expect(checkTransfer(500000, 500000)).toBeNull();
  });
});
