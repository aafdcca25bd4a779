/** Shapes and Markdown of the web page figures (scripts/lib/bench-web.ts); pure, no browser or bundler. */

/** Compressed bytes of the first load's JS + CSS, and of every asset. */
export interface PageWeight {
  firstLoadGzipBytes: number;
  firstLoadBrotliBytes: number;
  /** The assets counted as first load (absent in runs before the bundle was split). */
  firstLoadAssets?: string[];
  assets: { name: string; rawBytes: number; gzipBytes: number; brotliBytes: number }[];
}

/** Time to first result per query (ms after navigation start), first visit (empty browser cache) and repeated visit (assets cached). */
export interface FirstResultTiming {
  query: string;
  coldMs: number;
  warmMs: number;
  /** First visit: when the page's HTML had arrived. */
  htmlEndMs?: number | null;
  /** First visit: when the page sent `GET /api/search` and when its answer had arrived (ms after navigation). */
  searchStartMs?: number | null;
  searchEndMs?: number | null;
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
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)];
    lines.push(
      `Time to first result in headless Chromium (navigation start to the first result in the page, signed in; target < 300 ms): median ${median(timings.map((t) => t.coldMs)).toFixed(0)} ms first visit (empty cache), ${median(timings.map((t) => t.warmMs)).toFixed(0)} ms repeat visit, over ${timings.length} queries (first-visit max ${Math.max(...timings.map((t) => t.coldMs)).toFixed(0)} ms). First-visit phases (medians): HTML in at ${median(timings.map((t) => t.htmlEndMs ?? NaN)).toFixed(0)} ms, search sent at ${median(timings.map((t) => t.searchStartMs ?? NaN)).toFixed(0)} ms and answered at ${median(timings.map((t) => t.searchEndMs ?? NaN)).toFixed(0)} ms.`,
    );
  } else lines.push("Time to first result: not measured (no server given with --base-url, or no Chromium at CHROMIUM_PATH or /usr/bin/chromium).");
  return lines.join("\n");
}
