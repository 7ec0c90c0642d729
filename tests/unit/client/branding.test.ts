// Browser-side branding rules (docs/console-ui.md, "Branding and announcement"), and the
// escaping that keeps the root's code inside its own element (lib/branding/inject.ts).
import { describe, expect, it } from "vitest";
import { headHtmlScript, scriptJson, scriptText, styleText } from "@/lib/branding/inject";
import { contentKind, localDay, noticeVisible } from "@/lib/client/branding";

describe("announcement", () => {
  const now = new Date(2026, 10, 25, 23, 59);
  it("shows a non-empty notice unless it was closed for today on this local day", () => {
    expect(localDay(now)).toBe("2026-11-25");
    expect(noticeVisible("hello", null, now)).toBe(true);
    expect(noticeVisible("hello", "2026-11-25", now)).toBe(false);
    expect(noticeVisible("hello", "2026-11-25", new Date(2026, 10, 26, 0, 1))).toBe(true);
    expect(noticeVisible("  \n", null, now)).toBe(false);
  });
});

describe("administrator content", () => {
  it("frames a lone http(s) URL and renders anything else as Markdown", () => {
    expect(contentKind(" https://example.com/about \n")).toBe("url");
    expect(contentKind("http://example.com")).toBe("url");
    expect(contentKind("see https://example.com")).toBe("markdown");
    expect(contentKind("javascript:alert(1)")).toBe("markdown");
    expect(contentKind("<h1>hi</h1>")).toBe("markdown");
  });
});

describe("root-authored code", () => {
  it("cannot close its element early", () => {
    expect(styleText("a{} </STYLE><script>x</script>")).toBe("a{} <\\/STYLE><script>x</script>");
    expect(scriptText('var s = "</script><b>";')).toBe('var s = "<\\/script><b>";');
    expect(scriptJson("</script><!-- \u2028")).toBe('"\\u003c/script>\\u003c!-- \\u2028"');
    expect(headHtmlScript("  ")).toBe("");
    const script = headHtmlScript('<meta name="a" content="1"></script>');
    expect(script).not.toContain("</script>");
    expect(script).toContain('"\\u003cmeta name=\\"a\\" content=\\"1\\">\\u003c/script>"');
  });
});
