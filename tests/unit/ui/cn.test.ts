import { describe, expect, it } from "vitest";
import { cn } from "@/components/ui/cn";

describe("cn", () => {
  it("lets the caller's size and spacing win over the primitive's", () => {
    expect(cn("h-9 w-full rounded-md px-3", "h-8 w-auto")).toBe("rounded-md px-3 h-8 w-auto");
    expect(cn("w-full", "max-w-48")).toBe("w-full max-w-48");
    expect(cn("mt-2 md:mt-4", "mt-1")).toBe("md:mt-4 mt-1");
    expect(cn("-mt-1", "mt-2")).toBe("mt-2");
    expect(cn("w-[120px]", "w-20")).toBe("w-20");
    expect(cn("px-3 whitespace-nowrap", "whitespace-normal")).toBe("px-3 whitespace-normal");
  });
  it("keeps everything else, skipping falsy parts", () => {
    expect(cn("text-sm text-zinc-900", false, null, undefined, "border")).toBe("text-sm text-zinc-900 border");
    expect(cn("px-3 py-1", "p-2")).toBe("px-3 py-1 p-2");
  });
});
