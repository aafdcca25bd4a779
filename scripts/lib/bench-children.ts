/**
 * @module scripts/lib/bench-children
 *
 * The benchmarks `npm run bench` (scripts/bench.ts) runs in child processes: chunk throughput
 * (scripts/bench-chunk.ts) and grep beside ripgrep (scripts/bench-grep.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BenchResult } from "./bench-report.ts";

/** H1's chunk throughput over `corpus` (scripts/bench-chunk.ts in a child process), when that benchmark exists; null otherwise. */
export function runChunkBench(root: string, corpus: string, log: (line: string) => void): BenchResult["chunkBench"] {
  let chunkBench: BenchResult["chunkBench"] = null;
  const chunkScript = join(root, "scripts", "bench-chunk.ts");
  if (existsSync(chunkScript)) {
    log("running scripts/bench-chunk.ts ...");
    const r = spawnSync(process.execPath, [chunkScript, corpus], { cwd: root, encoding: "utf8", timeout: 600_000 });
    try {
      const j = JSON.parse(r.stdout) as Record<string, number>;
      chunkBench = {
        files: j.files,
        lines: j.lines,
        chunks: j.chunks,
        linesPerSecond: j.linesPerSecond,
        linesPerSecondBestPass: j.linesPerSecondBestPass,
        linesPerCpuSecond: j.linesPerCpuSecond,
      };
    } catch {
      log(`scripts/bench-chunk.ts did not print JSON: ${(r.stderr || r.stdout || "").slice(-500)}`);
    }
  }
  return chunkBench;
}

/**
 * The grep benchmark beside ripgrep, on its own fresh server (scripts/bench-grep.ts in a child
 * process) over `grepCorpora` (default the corpus, plus sympy when exported) at `commit`; its
 * markdown, or null when it failed.
 */
export function runGrepBench(root: string, corpus: string, grepCorpus: string[] | undefined, commit: string, log: (line: string) => void): string | null {
  let grepMarkdown: string | null = null;
  const SYMPY = "/tmp/cc-corpora/sympy-e950d31";
  const grepCorpora = grepCorpus ?? [corpus, ...(existsSync(SYMPY) && resolve(SYMPY) !== corpus ? [SYMPY] : [])];
  const grepOut = join(root, "bench", "out", `bench-grep-${process.pid}.json`);
  log(`running scripts/bench-grep.ts on ${grepCorpora.join(", ")} ...`);
  const r = spawnSync(
    process.execPath,
    [join(root, "scripts", "bench-grep.ts"), ...grepCorpora.flatMap((c) => ["--corpus", c]), "--commit", commit, "--out", grepOut],
    {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      timeout: 3_600_000,
    },
  );
  if (r.status === 0 && existsSync(grepOut)) grepMarkdown = (JSON.parse(readFileSync(grepOut, "utf8")) as { markdown: string }).markdown;
  else log(`scripts/bench-grep.ts failed (exit ${r.status}); no grep figures`);
  return grepMarkdown;
}
