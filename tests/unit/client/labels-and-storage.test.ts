import { describe, expect, it } from "vitest";
import { userRoleLabel, userStatusLabel } from "@/lib/client/labels";
import { parsePageSize } from "@/lib/client/storage";
import { userListPath } from "@/lib/client/user";

describe("status and role labels", () => {
  it("labels statuses, deregistration first", () => {
    expect(userStatusLabel(1).key).toBe("enabled");
    expect(userStatusLabel(2).key).toBe("banned");
    expect(userStatusLabel(3).key).toBe("other");
    expect(userStatusLabel(9).key).toBe("unknown");
    expect(userStatusLabel(1, "2026-01-01T00:00:00Z").key).toBe("deregistered");
    expect(userStatusLabel(1, null).key).toBe("enabled");
  });
  it("labels roles", () => {
    expect(userRoleLabel(1).key).toBe("user");
    expect(userRoleLabel(10).key).toBe("admin");
    expect(userRoleLabel(100).key).toBe("root");
    expect(userRoleLabel(5).key).toBe("unknown");
  });
});

describe("user list", () => {
  it("remembers only offered page sizes, default 10", () => {
    expect(parsePageSize(null)).toBe(10);
    expect(parsePageSize("50")).toBe(50);
    expect(parsePageSize("30")).toBe(10);
  });
  it("uses the 0-based list, or the 1-based search when filtering", () => {
    expect(userListPath({ keyword: "", group: "", page: 0, pageSize: 10 })).toBe("/api/user/?p=0&page_size=10");
    expect(userListPath({ keyword: " bob ", group: "", page: 1, pageSize: 20 })).toBe("/api/user/search?keyword=bob&group=&p=2&page_size=20");
    expect(userListPath({ keyword: "", group: "vip", page: 0, pageSize: 10 })).toBe("/api/user/search?keyword=&group=vip&p=1&page_size=10");
  });
});
