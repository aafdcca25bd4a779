/**
 * The request of `codebase-copilot review`: the diff read from a file, stdin or `git diff
 * <base>...HEAD` of the current checkout, and the exact HTTP request it becomes, which
 * `--dry-run` prints (with the token redacted) instead of sending.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** Where the diff comes from: exactly one of a file (`-` = stdin) or a base ref. */
export interface DiffSource {
  diff?: string;
  base?: string;
}

/** Reads the diff. Throws Error naming what to pass when neither or both are given, or the diff is empty. */
export function readDiff(src: DiffSource, cwd = process.cwd()): string {
  if ((src.diff === undefined) === (src.base === undefined)) throw new Error("pass exactly one of --diff <file> (or - for stdin) and --base <ref>.");
  let text: string;
  if (src.diff !== undefined) text = readFileSync(src.diff === "-" ? 0 : src.diff, "utf8");
  else {
    // `base...HEAD`: the changes of this branch since it left base, as a pull request shows them.
    text = execFileSync("git", ["diff", "--no-color", "--no-ext-diff", `${src.base}...HEAD`], { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  }
  if (!text.trim())
    throw new Error(
      src.base !== undefined ? `git diff ${src.base}...HEAD is empty: nothing to review.` : `the diff in ${src.diff} is empty: nothing to review.`,
    );
  return text;
}

/** One HTTP request, as sent. */
export interface HttpRequestSpec {
  method: "POST";
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** The POST /api/review request for `repo` and `diff`, read at `ref` (a tracked branch or tag) when given. */
export function reviewRequest(base: string, token: string, repo: string, diff: string, ref?: string): HttpRequestSpec {
  return {
    method: "POST",
    url: `${base.replace(/\/+$/, "")}/api/review`,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ repo, diff, ...(ref !== undefined ? { ref } : {}) }),
  };
}

/** The request as `--dry-run` prints it: request line, headers (token redacted), blank line, body. */
export function formatDryRun(req: HttpRequestSpec): string {
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${k === "authorization" ? "Bearer <redacted>" : v}`);
  return [`${req.method} ${req.url}`, ...headers, "", req.body].join("\n");
}
