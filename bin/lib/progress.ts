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
