/**
 * @module scripts/lib/ripgrep
 *
 * ripgrep over the same tree, for the side-by-side latency figure. A query becomes the product's
 * query terms (indexer/store/tokenize.ts `tokenizeQuery`), searched case-insensitively as fixed
 * strings, any of them (`rg -i -F -l -e t1 -e t2 ...`): what a grep-based agent does with the same
 * words. Latency is the wall time of one `rg` process, spawn included.
 */
import { spawn, spawnSync } from "node:child_process";
import { tokenizeQuery } from "../../indexer/store/tokenize.ts";

/** ripgrep's version line, or null when `rg` is not installed. */
export function ripgrepVersion(): string | null {
  const r = spawnSync("rg", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.split("\n")[0] : null;
}

/** Arguments for one query (terms capped at `maxTerms`, default 64). */
export function ripgrepArgs(query: string, dir: string, maxTerms = 64): string[] {
  const terms = tokenizeQuery(query).slice(0, maxTerms);
  return ["-i", "-F", "-l", ...terms.flatMap((t) => ["-e", t]), dir];
}

/** Runs rg for one query; resolves with the wall time in ms and the number of files listed. */
export function runRipgrep(query: string, dir: string): Promise<{ ms: number; files: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn("rg", ripgrepArgs(query, dir), { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.on("error", reject);
    // Exit 1 means "no match", which is a valid answer.
    child.on("close", (code) =>
      code === 0 || code === 1
        ? resolve({ ms: performance.now() - started, files: out ? out.trim().split("\n").length : 0 })
        : reject(new Error(`rg exited ${code}`)),
    );
  });
}
