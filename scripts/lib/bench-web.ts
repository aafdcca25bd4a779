/**
 * Web page figures for `npm run bench` (and `npm run bench:web`): the compressed weight of the
 * JavaScript and CSS the search page loads first (scripts/build-web.ts output, gzip level 9
 * and brotli, as a CDN would send them), and the time to first result: from navigation to
 * `/?q=...&repo=...` until the first result is on screen in headless Chromium (page load,
 * session, repo list, search and rendering), for each query, signed in with the admin token.
 * Target (issue 24): under 150 KB first-load JS+CSS, first results under 300 ms locally.
 */
import { existsSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { bundleWebAssets } from "../build-web.ts";
import type { FirstResultTiming, PageWeight } from "./bench-web-report.ts";

export { webMarkdown, type FirstResultTiming, type PageWeight } from "./bench-web-report.ts";

/** What the search page loads on first visit (besides its HTML). */
const FIRST_LOAD_ASSETS = ["search.js", "styles.css"];

/** Builds the assets in memory and weighs them. */
export async function measurePageWeight(): Promise<PageWeight> {
  const assets = (await bundleWebAssets()).map((a) => ({
    name: a.name,
    rawBytes: Buffer.byteLength(a.body),
    gzipBytes: gzipSync(a.body, { level: 9 }).length,
    brotliBytes: brotliCompressSync(a.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }));
  const first = assets.filter((a) => FIRST_LOAD_ASSETS.includes(a.name));
  return { firstLoadGzipBytes: first.reduce((s, a) => s + a.gzipBytes, 0), firstLoadBrotliBytes: first.reduce((s, a) => s + a.brotliBytes, 0), assets };
}

/**
 * Signs in at `baseUrl` with the admin `token`, then for each query loads the search page
 * twice and measures navigation start -> first `.result` in the DOM (performance.now() in the
 * page). Returns null when Chromium is missing (CHROMIUM_PATH, default /usr/bin/chromium).
 */
export async function measureFirstResult(baseUrl: string, token: string, repo: string, queries: readonly string[]): Promise<FirstResultTiming[] | null> {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(executablePath)) return null;
  const browser = await chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${baseUrl}/login`);
    await page.locator('input[name="admin_token"]').fill(token);
    await Promise.all([page.waitForURL(`${baseUrl}/`), page.locator('input[name="admin_token"]').press("Enter")]);
    const once = async (q: string) => {
      await page.goto(`${baseUrl}/?q=${encodeURIComponent(q)}&repo=${encodeURIComponent(repo)}`);
      await page.locator("#results .result").first().waitFor({ timeout: 60_000 });
      return page.evaluate(() => {
        const api = performance.getEntriesByType("resource").find((e) => e.name.includes("/api/search?")) as PerformanceResourceTiming | undefined;
        return { shownMs: performance.now(), searchStartMs: api?.startTime ?? null, searchEndMs: api?.responseEnd ?? null };
      });
    };
    const out: FirstResultTiming[] = [];
    for (const q of queries) {
      const cold = await once(q);
      const warm = await once(q);
      out.push({ query: q, coldMs: cold.shownMs, warmMs: warm.shownMs, searchStartMs: cold.searchStartMs, searchEndMs: cold.searchEndMs });
    }
    return out;
  } finally {
    await browser.close();
  }
}
