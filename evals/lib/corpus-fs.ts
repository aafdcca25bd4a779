/**
 * @module evals/lib/corpus-fs
 *
 * Reads a corpus folder from disk (Node only): every regular file under the root, skipping
 * `.git/` and symlinks, with repo-relative `/`-separated paths, in sorted order.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { CorpusFile } from "./archive.ts";
import { includePath, type InclusionRule } from "./inclusion.ts";

/** Lists the files of `root` that `rule` includes. */
export function listCorpus(root: string, rule: InclusionRule): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const rel = relative(root, full).split(sep).join("/");
      if (entry.name === ".git") continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && includePath(rule, rel)) out.push(rel);
    }
  };
  walk(root);
  return out.sort();
}

/** Reads the files of `root` that `rule` includes. */
export function readCorpus(root: string, rule: InclusionRule): CorpusFile[] {
  return listCorpus(root, rule).map((path) => ({ path, bytes: new Uint8Array(readFileSync(join(root, path))) }));
}

/** Whether bytes look like text: no NUL byte in the first 8 KiB (git's heuristic). */
export function looksLikeText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, 8192).includes(0);
}
