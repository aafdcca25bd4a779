/**
 * The indexing progress line: `[#########.....] 300/430 files, 288 indexed, 12 skipped (binary 7, lockfile 5)  indexing`.
 */
import { Presets, SingleBar } from "cli-progress";
import type { RepoStatus } from "./api-client.ts";

/** Width of the bar in characters. */
export const BAR_WIDTH = 30;

/** Files handled so far: indexed, skipped for any reason, or unchanged since the last snapshot. */
export function handledFiles(s: RepoStatus): number {
  const total = s.progress?.filesTotal ?? 0;
  if (s.status === "ready") return total;
  const skipped = Object.values(s.skipped ?? {}).reduce((a, n) => a + Math.max(n, 0), 0);
  return Math.min((s.progress?.filesDone ?? 0) + (s.job?.unchanged ?? 0) + skipped, total);
}

/**
 * The text after the bar: `300/430 files, 288 indexed, 12 skipped (binary 7, lockfile 5)  indexing`.
 * Pure. A file counts as handled once it is indexed, skipped (any reason) or unchanged.
 */
export function progressLabel(s: RepoStatus): string {
  const total = s.progress?.filesTotal ?? 0;
  const unchanged = s.job?.unchanged ?? 0;
  const skippedEntries = Object.entries(s.skipped ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const skippedTotal = skippedEntries.reduce((a, [, n]) => a + n, 0);
  const parts = [`${String(handledFiles(s)).padStart(String(total).length)}/${total} files`, `${s.progress?.filesDone ?? 0} indexed`];
  if (unchanged) parts.push(`${unchanged} unchanged`);
  if (skippedTotal) parts.push(`${skippedTotal} skipped (${skippedEntries.map(([r, n]) => `${r} ${n}`).join(", ")})`);
  return `${parts.join(", ")}  ${s.status}`;
}

/** One progress line for a repo status: a `#` bar of `width` characters and the label. Pure. */
export function renderProgress(s: RepoStatus, width = BAR_WIDTH): string {
  const total = s.progress?.filesTotal ?? 0;
  const filled = total > 0 ? Math.round((handledFiles(s) / total) * width) : s.status === "ready" ? width : 0;
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${progressLabel(s)}`;
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

/**
 * A progress printer: on a TTY a cli-progress bar (files handled of files total, with the
 * status and counts as its label); elsewhere (logs, CI) each changed line of `renderProgress`.
 */
export function createProgressPrinter(out: NodeJS.WriteStream) {
  let last = "";
  let bar: SingleBar | undefined;
  return {
    update(s: RepoStatus) {
      const line = renderProgress(s);
      if (line === last) return;
      last = line;
      if (!out.isTTY) {
        out.write(`${line}\n`);
        return;
      }
      const total = Math.max(s.progress?.filesTotal ?? 0, 1);
      const label = progressLabel(s);
      if (!bar) {
        bar = new SingleBar({ stream: out, format: "[{bar}] {label}", barsize: BAR_WIDTH, hideCursor: true, clearOnComplete: false }, Presets.legacy);
        bar.start(total, 0, { label });
      }
      bar.setTotal(total);
      bar.update(handledFiles(s), { label });
    },
    done() {
      bar?.stop();
    },
  };
}
