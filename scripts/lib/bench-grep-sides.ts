/**
 * Both sides of the grep benchmark's comparison (scripts/bench-grep.ts): ripgrep run over the
 * tree, and grep over the REST API paged with the cursor, each as a set of `path:line`.
 */
import { spawn } from "node:child_process";
import type { ApiClient } from "../../evals/lib/client.ts";
import { rgFlags, type Pattern } from "./bench-grep-patterns.ts";

/** Runs `rg` with `args`: its stdout and wall time (ms, spawn included); exit 1 (no match) is not an error. */
export function runRg(args: string[]): Promise<{ ms: number; out: string }> {
  return new Promise((res, rej) => {
    const t = performance.now();
    const child = spawn("rg", args, { stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => chunks.push(d));
    child.on("error", rej);
    child.on("close", (code) =>
      code === 0 || code === 1 ? res({ ms: performance.now() - t, out: Buffer.concat(chunks).toString("utf8") }) : rej(new Error(`rg exited ${code}`)),
    );
  });
}

/** rg's matching (path, line) set over `dir`, kept to `files` (the index's file set). */
export async function rgMatches(dir: string, p: Pattern, files: Set<string>): Promise<Set<string>> {
  const { out } = await runRg([
    "--no-ignore",
    "--hidden",
    "--no-messages",
    "--null",
    "-n",
    "--no-heading",
    "--with-filename",
    ...rgFlags(p),
    "-e",
    p.pattern,
    dir,
  ]);
  const set = new Set<string>();
  for (const row of out.split("\n")) {
    const nul = row.indexOf("\0");
    if (nul < 0) continue;
    const path = row.slice(dir.length + 1, nul);
    if (!files.has(path)) continue;
    set.add(`${path}:${Number.parseInt(row.slice(nul + 1), 10)}`);
  }
  return set;
}

/** Every (path, line) grep returns for `p`, paging with the cursor. */
export async function grepMatches(client: ApiClient, repo: string, p: Pattern): Promise<{ set: Set<string>; pages: number; total: number }> {
  const set = new Set<string>();
  let cursor: string | null = null;
  let pages = 0;
  let total: number;
  do {
    const body: any = await client.request("POST", "/api/grep", { ...p, repo, limit: 500, ...(cursor ? { cursor } : {}) });
    pages++;
    for (const m of body.matches) set.add(`${m.path}:${m.line}`);
    total = body.total_count;
    cursor = body.next_cursor;
  } while (cursor);
  return { set, pages, total };
}
