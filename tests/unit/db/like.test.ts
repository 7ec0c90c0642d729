import { describe, expect, it } from "vitest";
import { containsText, escapeLike, sqliteLikeEscape } from "@/lib/db/like";

describe("LIKE escaping", () => {
  it("escapes the wildcards and the escape character", () => {
    expect(escapeLike("a%b_c\\d")).toBe("a\\%b\\_c\\\\d");
    expect(escapeLike("plain")).toBe("plain");
    expect(containsText("50%")).toEqual({ contains: "50\\%" });
  });
  it("names the escape character on Prisma's SQLite LIKE comparisons, once", () => {
    const sql = "SELECT `id` FROM `main`.`tokens` WHERE (`main`.`tokens`.`name` LIKE ? AND `x` like ?2) LIMIT ?";
    const once = sqliteLikeEscape(sql);
    expect(once).toBe("SELECT `id` FROM `main`.`tokens` WHERE (`main`.`tokens`.`name` LIKE ? ESCAPE '\\' AND `x` LIKE ?2 ESCAPE '\\') LIMIT ?");
    expect(sqliteLikeEscape(once)).toBe(once);
    expect(sqliteLikeEscape("SELECT 1")).toBe("SELECT 1");
  });
});
