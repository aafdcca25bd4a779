/**
 * Web page figures for `npm run bench` (and `npm run bench:web`): the compressed weight of the
 * JavaScript and CSS the search page loads first (scripts/build-web.ts output, gzip level 9
 * and brotli, as a CDN would send them), and the time to first result: from navigation to
 * `/?q=...&repo=...` until the first result is in the page in headless Chromium (page load,
 * scripts, search, highlighter and rendering), for each query, signed in with the admin
 * token. The time is taken inside the page (a MutationObserver installed before the page's
 * own scripts run notes performance.now() when the first `.result` is added), so the
 * DevTools round trips of the driver are not in it; the phases come from Navigation and
 * Resource Timing.
 * Target (issue 24): under 150 KB first-load JS+CSS, first results under 300 ms locally.
 */
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../test/e2e/chromium.ts";
import { existsSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { bundleWeb } from "../build-web.ts";
import type { FirstResultTiming, PageWeight } from "./bench-web-report.ts";

export { webMarkdown, type FirstResultTiming, type PageWeight } from "./bench-web-report.ts";

/**
 * Builds the assets in memory and weighs them. First load = what the search page fetches
 * until its first results are drawn and highlighted: the stylesheet, search.js, the chunks it
 * imports statically and after its first draw (highlight.js core), and the highlighter of one
 * language (typescript, the largest common one: the page loads only its results' languages).
 */
export async function measurePageWeight(): Promise<PageWeight> {
  const { assets: built, manifest } = await bundleWeb();
  const firstLoad = [
    manifest.entryFiles.styles,
    manifest.entryFiles.search,
    ...manifest.entryImports.search,
    ...manifest.entryLazyImports.search,
    manifest.languageChunks.typescript,
  ];
  const assets = built.map((a) => ({
    name: a.name,
    rawBytes: Buffer.byteLength(a.body),
    gzipBytes: gzipSync(a.body, { level: 9 }).length,
    brotliBytes: brotliCompressSync(a.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }));
  const first = assets.filter((a) => firstLoad.includes(a.name));
  return {
    firstLoadGzipBytes: first.reduce((s, a) => s + a.gzipBytes, 0),
    firstLoadBrotliBytes: first.reduce((s, a) => s + a.brotliBytes, 0),
    firstLoadAssets: first.map((a) => a.name),
    assets,
  };
}

/**
 * Signs in at `baseUrl` with the admin `token`, then for each query loads the search page
 * twice: first in a fresh browser context (nothing cached: every asset is downloaded), then
 * again in the same context (the browser cache holds the assets), and measures navigation
 * start -> first `.result` in the DOM (performance.now() in the page). Returns null when
 * Chromium is missing (CHROMIUM_PATH, default /usr/bin/chromium).
 */
export async function measureFirstResult(baseUrl: string, token: string, repo: string, queries: readonly string[]): Promise<FirstResultTiming[] | null> {
  if (!existsSync(CHROMIUM_PATH)) return null;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const signIn = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const login = await signIn.newPage();
    await login.goto(`${baseUrl}/login`);
    await login.locator('input[name="admin_token"]').fill(token);
    await Promise.all([login.waitForURL(`${baseUrl}/`), login.locator('input[name="admin_token"]').press("Enter")]);
    const storageState = await signIn.storageState();
    await signIn.close();
    const once = async (page: Page, q: string) => {
      await page.goto(`${baseUrl}/?q=${encodeURIComponent(q)}&repo=${encodeURIComponent(repo)}`);
      await page.locator("#results .result").first().waitFor({ timeout: 60_000 });
      return page.evaluate(() => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
        const api = performance.getEntriesByType("resource").find((e) => e.name.includes("/api/search?")) as PerformanceResourceTiming | undefined;
        return {
          shownMs: (window as unknown as { __firstResultMs: number }).__firstResultMs,
          htmlEndMs: nav?.responseEnd ?? null,
          searchStartMs: api?.startTime ?? null,
          searchEndMs: api?.responseEnd ?? null,
        };
      });
    };
    const out: FirstResultTiming[] = [];
    for (const q of queries) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, storageState });
      await context.addInitScript(() => {
        const w = window as unknown as { __firstResultMs?: number };
        new MutationObserver((_, obs) => {
          if (document.querySelector("#results .result")) {
            w.__firstResultMs = performance.now();
            obs.disconnect();
          }
        }).observe(document, { subtree: true, childList: true });
      });
      const page = await context.newPage();
      const cold = await once(page, q);
      const warm = await once(page, q);
      await context.close();
      out.push({
        query: q,
        coldMs: cold.shownMs,
        warmMs: warm.shownMs,
        htmlEndMs: cold.htmlEndMs,
        searchStartMs: cold.searchStartMs,
        searchEndMs: cold.searchEndMs,
      });
    }
    return out;
  } finally {
    await browser.close();
  }
}
