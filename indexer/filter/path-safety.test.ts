import { describe, expect, it } from "vitest";
import { createFileFilter } from "./file-filter";
import { escapeUnsafePath, unsafePathRule } from "./path-safety";

describe("unsafe paths", () => {
  const filter = createFileFilter({ maxFileBytes: 1 << 20, ignoreFiles: [] });
  it.each([
    ["a\nb.ts", "path:control-char", "a\\u000ab.ts"],
    ["a\tb.ts", "path:control-char", "a\\u0009b.ts"],
    ["a\u001b[31m.ts", "path:control-char", "a\\u001b[31m.ts"],
    ["a\u0085.ts", "path:control-char", "a\\u0085.ts"],
    ["a\u202eb.ts", "path:bidi-control", "a\\u202eb.ts"],
    ["a\u2066b\u2069.ts", "path:bidi-control", "a\\u2066b\\u2069.ts"],
    ["a\u200fb.ts", "path:bidi-control", "a\\u200fb.ts"],
    ["a\u2028b.ts", "path:line-separator", "a\\u2028b.ts"],
  ])("%j -> %s, listed as %s", (path, rule, escaped) => {
    expect(unsafePathRule(path)).toBe(rule);
    expect(filter.checkEntry({ path, mode: "100644", size: 10 })).toEqual({ reason: "unsafe_path", rule });
    expect(escapeUnsafePath(path)).toBe(escaped);
  });
  it.each(["src/日本語/ファイル.ts", "src/a b#c?.ts", "docs/café.md", "src/עברית.ts", "src/emoji-😀.ts"])("%s is safe", (path) => {
    expect(unsafePathRule(path)).toBeNull();
    expect(escapeUnsafePath(path)).toBe(path);
    expect(filter.checkEntry({ path, mode: "100644", size: 10 })).toBeNull();
  });
});
