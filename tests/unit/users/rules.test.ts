import { describe, expect, it } from "vitest";
import { canCreateRole, planManage, type ManageAction } from "@/lib/users/rules";

const root = { id: 1, role: 100 };
const admin = { id: 2, role: 10 };
const target = (role: number, over: Partial<{ id: number; status: number; deleted_at: bigint | null }> = {}) => ({
  id: 50,
  role,
  status: 1,
  deleted_at: null,
  ...over,
});
const refusal = (r: ReturnType<typeof planManage>) => ("refuse" in r ? r.refuse : null);

describe("planManage", () => {
  it("refuses same or higher levels for admins", () => {
    for (const a of ["promote", "demote", "disable", "enable", "delete"] as ManageAction[]) {
      expect(refusal(planManage(admin, target(10), a))).toBe("cannot_manage_equal_or_higher");
      expect(refusal(planManage(admin, target(100), a))).toBe("cannot_manage_equal_or_higher");
      expect(refusal(planManage(admin, { ...target(10), id: admin.id }, a))).toBe("cannot_manage_equal_or_higher");
    }
  });
  it("lets only the root promote", () => {
    expect(refusal(planManage(admin, target(1), "promote"))).toBe("cannot_promote_to_admin");
    expect(planManage(root, target(1), "promote")).toEqual({ role: 10, status: 1, delete: false });
    expect(refusal(planManage(root, target(10), "promote"))).toBe("already_admin");
  });
  it("demotes admins only", () => {
    expect(planManage(root, target(10), "demote")).toEqual({ role: 1, status: 1, delete: false });
    expect(refusal(planManage(admin, target(1), "demote"))).toBe("already_common");
  });
  it("protects the root from disable, delete and demote", () => {
    const self = { ...target(100), id: root.id };
    expect(refusal(planManage(root, self, "disable"))).toBe("cannot_disable_root");
    expect(refusal(planManage(root, self, "delete"))).toBe("cannot_delete_root");
    expect(refusal(planManage(root, self, "demote"))).toBe("cannot_demote_root");
  });
  it("disables, enables, deletes, and refuses deregistered targets", () => {
    expect(planManage(admin, target(1), "disable")).toEqual({ role: 1, status: 2, delete: false });
    expect(planManage(admin, target(1, { status: 2 }), "enable")).toEqual({ role: 1, status: 1, delete: false });
    expect(planManage(admin, target(1), "delete")).toEqual({ role: 1, status: 1, delete: true });
    expect(refusal(planManage(root, target(1, { deleted_at: 5n }), "enable"))).toBe("user_deregistered");
  });
});

describe("canCreateRole", () => {
  it("allows only strictly lower roles", () => {
    expect(canCreateRole(10, 1)).toBe(true);
    expect(canCreateRole(10, 10)).toBe(false);
    expect(canCreateRole(100, 10)).toBe(true);
    expect(canCreateRole(100, 100)).toBe(false);
  });
});
