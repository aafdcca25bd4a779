/**
 * The indexing progress line: `[#########.....] 300/430 files, 288 indexed, 12 skipped (binary 7, lockfile 5)  indexing`.
 */
import type { RepoStatus } from "./api-client.ts";

/** Width of the bar in characters. */
export const BAR_WIDTH = 30;

/**
 * Renders one progress line for a repo status. Pure. A file counts as handled once it is indexed
 * (`filesDone`), skipped (any reason) or unchanged since the last snapshot (`job.unchanged`).
 */
export function renderProgress(s: RepoStatus, width = BAR_WIDTH): string {
  const total = s.progress?.filesTotal ?? 0;
  const indexed = s.progress?.filesDone ?? 0;
  const unchanged = s.job?.unchanged ?? 0;
  const skippedEntries = Object.entries(s.skipped ?? {}).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const skippedTotal = skippedEntries.reduce((a, [, n]) => a + n, 0);
  const handled = s.status === "ready" ? total : Math.min(indexed + unchanged + skippedTotal, total);
  const filled = total > 0 ? Math.round((handled / total) * width) : s.status === "ready" ? width : 0;
  const bar = `[${"#".repeat(filled)}${".".repeat(width - filled)}]`;
  const parts = [`${String(handled).padStart(String(total).length)}/${total} files`, `${indexed} indexed`];
  if (unchanged) parts.push(`${unchanged} unchanged`);
  if (skippedTotal) parts.push(`${skippedTotal} skipped (${skippedEntries.map(([r, n]) => `${r} ${n}`).join(", ")})`);
  return `${bar} ${parts.join(", ")}  ${s.status}`;
}

/**
 * The line printed when a job is ready: `Indexed "hono" in 4.3 s: 470 files, 2,527 chunks
 * searchable (0 processed, 470 unchanged).` `elapsedMs` is measured by the CLI from the upload
 * (or registration) request to the first ready status, so it includes polling (up to 0.5 s).
 */
export function renderDone(s: RepoStatus, elapsedMs: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const totals = s.index ? `: ${n(s.index.files)} files, ${n(s.index.chunks)} chunks searchable` : "";
  const job = `${n(s.progress?.filesDone ?? 0)} processed, ${n(s.job?.unchanged ?? 0)} unchanged`;
  return `Indexed "${s.id}" in ${(elapsedMs / 1000).toFixed(1)} s${totals} (${job}).`;
}

/** A printer that redraws one line on a TTY and prints changed lines otherwise (logs, CI). */
export function createProgressPrinter(out: NodeJS.WriteStream) {
  let last = "";
  return {
    update(line: string) {
      if (line === last) return;
      last = line;
      if (out.isTTY) out.write(`\r\x1b[2K${line}`);
      else out.write(`${line}\n`);
    },
    done() {
      if (out.isTTY && last) out.write("\n");
    },
  };
}
