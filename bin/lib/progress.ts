/**
 * The indexing progress line: `[#######.............]  120/430 files  skipped 12 (binary 7, lockfile 5)  indexing`.
 */
import type { RepoStatus } from "./api-client.ts";

/** Width of the bar in characters. */
export const BAR_WIDTH = 30;

/** Renders one progress line for a repo status. Pure. */
export function renderProgress(s: RepoStatus, width = BAR_WIDTH): string {
  const total = s.progress?.filesTotal ?? 0;
  const done = Math.min(s.progress?.filesDone ?? 0, total);
  const ratio = s.status === "ready" ? 1 : total > 0 ? done / total : 0;
  const filled = Math.round(ratio * width);
  const bar = `[${"#".repeat(filled)}${".".repeat(width - filled)}]`;
  const skippedEntries = Object.entries(s.skipped ?? {}).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const skippedTotal = skippedEntries.reduce((a, [, n]) => a + n, 0);
  const skipped = skippedTotal ? `  skipped ${skippedTotal} (${skippedEntries.map(([r, n]) => `${r} ${n}`).join(", ")})` : "";
  return `${bar} ${String(done).padStart(String(total).length)}/${total} files${skipped}  ${s.status}`;
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
