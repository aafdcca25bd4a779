/**
 * CONTRIBUTING.md stays true: every file or folder path it names in backticks exists. A path is
 * a backticked word with a `/` or a known file extension; in a pattern such as
 * `worker/mcp/tools/<tool-name>.ts` or `scripts/bench-*.ts`, the folder before the first
 * placeholder must exist. Commands (with spaces), routes (`/api/...`) and identifiers are not
 * paths.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FILE_EXTENSION = /\.(ts|mts|mjs|cjs|md|sql|json|toml)$/;

/** The paths named in backticks in a markdown text (outside fenced blocks), each once. */
function namedPaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  const words = [...prose.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]);
  return [...new Set(words.filter((w) => !w.startsWith("/") && !w.startsWith("-") && (w.includes("/") || FILE_EXTENSION.test(w))))];
}

/** The part of a path that must exist: all of it, or the folder before its first `<`, `*` or `{`. */
function existingPart(path: string): string {
  const special = path.search(/[<*{]/);
  if (special < 0) return path;
  return path.slice(0, path.lastIndexOf("/", special) + 1) || ".";
}

describe("CONTRIBUTING.md", () => {
  const paths = namedPaths(readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8"));

  it("names paths (the check has something to check)", () => {
    expect(paths.length).toBeGreaterThan(50);
    expect(paths).toContain("worker/search/ranking/stages.ts");
    expect(existingPart("worker/mcp/tools/<tool-name>.ts")).toBe("worker/mcp/tools/");
  });

  it("names only paths that exist", () => {
    const missing = paths.filter((p) => !existsSync(join(ROOT, existingPart(p))));
    expect(missing).toEqual([]);
  });

  it("reads a missing path as missing", () => {
    const [p] = namedPaths("see `worker/search/no-such-file.ts` and `npm run x`");
    expect(p).toBe("worker/search/no-such-file.ts");
    expect(existsSync(join(ROOT, existingPart(p)))).toBe(false);
  });
});
