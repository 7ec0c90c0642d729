// Labels of the user statuses and roles (docs/product-rules.md, "Accounts"). Keys under "users.status" and
// "users.role" in messages/*.json, with a badge colour.
import type { BadgeColor } from "@/lib/client/badge-color";

export type Label = { key: string; color: BadgeColor };

export function userStatusLabel(status: number, deletedAt?: unknown): Label {
  if (deletedAt) return { key: "deregistered", color: "gray" };
  switch (status) {
    case 1:
      return { key: "enabled", color: "green" };
    case 2:
      return { key: "banned", color: "red" };
    case 3:
      return { key: "other", color: "orange" };
    default:
      return { key: "unknown", color: "gray" };
  }
}

export function userRoleLabel(role: number): Label {
  switch (role) {
    case 1:
      return { key: "user", color: "blue" };
    case 10:
      return { key: "admin", color: "yellow" };
    case 100:
      return { key: "root", color: "orange" };
    default:
      return { key: "unknown", color: "gray" };
  }
}
