/** Shapes and Markdown of the web page figures (scripts/lib/bench-web.ts); pure, no browser or bundler. */

/** Compressed bytes of the first load's JS + CSS, and of every asset. */
export interface PageWeight {
  firstLoadGzipBytes: number;
  firstLoadBrotliBytes: number;
  /** The assets counted as first load (absent in runs before the bundle was split). */
  firstLoadAssets?: string[];
  assets: { name: string; rawBytes: number; gzipBytes: number; brotliBytes: number }[];
}

/**
 * Time to first result per query (ms after navigation start), first visit (empty browser
 * cache) and repeated visit (assets cached): when the first result entered the DOM. The
 * optional fields are absent in runs before they were measured.
 */
export interface FirstResultTiming {
  query: string;
  coldMs: number;
  warmMs: number;
  /** When the first result was painted (Element Timing), first and repeat visit. */
  coldPaintedMs?: number | null;
  warmPaintedMs?: number | null;
  /** First visit: when the first result's snippet had highlight.js colours (null: not within 5 s). */
  coldHighlightedMs?: number | null;
  /** First visit: when the page's HTML had arrived. */
  htmlEndMs?: number | null;
  /** First visit: when the last of the scripts named in the page's head (entry and modulepreloads) had arrived. */
  scriptsEndMs?: number | null;
  /** First visit: when the page sent `GET /api/search` and when its answer had arrived (ms after navigation). */
  searchStartMs?: number | null;
  searchEndMs?: number | null;
  /** Repeat visit: when the search answer had arrived. */
  warmSearchEndMs?: number | null;
}

/** Median of the finite values (upper median for even counts), NaN when there are none. */
function median(xs: readonly (number | null | undefined)[]): number {
  const v = xs.filter((x): x is number => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : NaN;
}

const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "n/a");

/** The first-visit phases line: medians over the queries, and the median gap from the search answer to the drawn result. */
function phasesLine(timings: readonly FirstResultTiming[]): string {
  const gap = (a: (t: FirstResultTiming) => number | null | undefined, b: (t: FirstResultTiming) => number | null | undefined) =>
    median(timings.map((t) => (typeof a(t) === "number" && typeof b(t) === "number" ? (a(t) as number) - (b(t) as number) : null)));
  return (
    `First-visit phases (medians): HTML in at ${ms(median(timings.map((t) => t.htmlEndMs)))}, scripts in at ${ms(median(timings.map((t) => t.scriptsEndMs)))}, ` +
    `search sent at ${ms(median(timings.map((t) => t.searchStartMs)))} and answered at ${ms(median(timings.map((t) => t.searchEndMs)))}, ` +
    `first result drawn at ${ms(median(timings.map((t) => t.coldMs)))}, painted at ${ms(median(timings.map((t) => t.coldPaintedMs)))}, highlighted at ${ms(median(timings.map((t) => t.coldHighlightedMs)))}; ` +
    `answer to drawn ${ms(
      gap(
        (t) => t.coldMs,
        (t) => t.searchEndMs,
      ),
    )} (repeat visit ${ms(
      gap(
        (t) => t.warmMs,
        (t) => t.warmSearchEndMs,
      ),
    )}), drawn to painted ${ms(
      gap(
        (t) => t.coldPaintedMs,
        (t) => t.coldMs,
      ),
    )}.`
  );
}

/** Markdown lines for the bench report. */
export function webMarkdown(w: PageWeight, timings: FirstResultTiming[] | null): string {
  const kb = (b: number) => (b / 1024).toFixed(1);
  const lines = [
    `Web page weight, first load (search page JS + CSS${w.firstLoadAssets ? `: ${w.firstLoadAssets.join(", ")}` : ""}): ${kb(w.firstLoadGzipBytes)} KB gzip, ${kb(w.firstLoadBrotliBytes)} KB brotli (target < 150 KB). All ${w.assets.length} assets: ${kb(w.assets.reduce((s, a) => s + a.gzipBytes, 0))} KB gzip (entries ${w.assets
      .filter((a) => !a.name.startsWith("chunk-"))
      .map((a) => `${a.name} ${kb(a.gzipBytes)} KB`)
      .join(", ")}; the rest are shared and per-language chunks).`,
  ];
  if (timings?.length) {
    lines.push(
      `Time to first result in headless Chromium (navigation start to the first result in the page, signed in; target < 300 ms): median ${ms(median(timings.map((t) => t.coldMs)))} first visit (empty cache), ${ms(median(timings.map((t) => t.warmMs)))} repeat visit, over ${timings.length} visits (first-visit max ${ms(Math.max(...timings.map((t) => t.coldMs)))}); painted at ${ms(median(timings.map((t) => t.coldPaintedMs)))} first visit, ${ms(median(timings.map((t) => t.warmPaintedMs)))} repeat visit. ${phasesLine(timings)}`,
    );
  } else lines.push("Time to first result: not measured (no server given with --base-url, or no Chromium at CHROMIUM_PATH or /usr/bin/chromium).");
  return lines.join("\n");
}

/**
 * Markdown comparing servers measured in the same period (measureFirstResultPaired): per
 * server its medians and phases, then the first server against each other one: the median of
 * the per-query ratios first / other (same query, measured back to back), which cancels most
 * of a shared machine's drift.
 */
export function pairedMarkdown(labels: readonly string[], runs: readonly (readonly FirstResultTiming[])[]): string {
  const lines = runs.map(
    (t, i) =>
      `- ${labels[i]}: first result drawn ${ms(median(t.map((x) => x.coldMs)))} first visit, ${ms(median(t.map((x) => x.warmMs)))} repeat visit; painted ${ms(median(t.map((x) => x.coldPaintedMs)))} / ${ms(median(t.map((x) => x.warmPaintedMs)))} (${t.length} visits each). ${phasesLine(t)}`,
  );
  const ratio = (a: readonly FirstResultTiming[], b: readonly FirstResultTiming[], pick: (x: FirstResultTiming) => number | null | undefined) =>
    median(a.map((x, i) => (typeof pick(x) === "number" && typeof pick(b[i]) === "number" ? (pick(x) as number) / (pick(b[i]) as number) : null)));
  for (let i = 1; i < runs.length; i++) {
    const r = (pick: (x: FirstResultTiming) => number | null | undefined) => ratio(runs[0], runs[i], pick).toFixed(2);
    lines.push(
      `- ${labels[0]} / ${labels[i]}, median of paired ratios (below 1: ${labels[0]} is faster): drawn ${r((x) => x.coldMs)} first visit, ${r((x) => x.warmMs)} repeat visit; painted ${r((x) => x.coldPaintedMs)} first visit, ${r((x) => x.warmPaintedMs)} repeat visit.`,
    );
  }
  return lines.join("\n");
}
