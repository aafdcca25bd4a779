/**
 * Web page figures for `npm run bench` (and `npm run bench:web`): the compressed weight of the
 * JavaScript and CSS the search page loads first (scripts/build-web.ts output, gzip level 9
 * and brotli, as a CDN would send them), and the time to first result: from navigation to
 * `/?q=...&repo=...` until the first result is in the page in headless Chromium (page load,
 * scripts, search and rendering), for each query, signed in with the admin token; also when
 * that result is painted and when its snippet is syntax-highlighted. The times are taken inside
 * the page (a probe installed before the page's own scripts run: a MutationObserver notes
 * performance.now() when the first `.result` is added and when highlight.js classes appear in
 * it, Element Timing when it is painted), so the DevTools round trips of the driver are not in
 * them; the phases come from Navigation and Resource Timing.
 * Target (issue 24): under 150 KB first-load JS+CSS, first results under 300 ms locally.
 */
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../test/e2e/chromium.ts";
import { existsSync } from "node:fs";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { bundleWeb } from "../build-web.ts";
import type { FirstResultTiming, PageWeight } from "./bench-web-report.ts";

export { pairedMarkdown, webMarkdown, type FirstResultTiming, type PageWeight } from "./bench-web-report.ts";

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

/** What the page-side probe (installed before the page's own scripts) found on one visit (ms after navigation start). */
interface VisitProbe {
  shownMs: number;
  paintedMs: number | null;
  highlightedMs: number | null;
  htmlEndMs: number | null;
  scriptsEndMs: number | null;
  searchStartMs: number | null;
  searchEndMs: number | null;
}

/** Longest wait for the first result's colours after it was drawn (ms); a page that never colours reports null. */
const HIGHLIGHT_WAIT_MS = 5000;

/**
 * Runs in the page before its scripts: notes when the first `.result` enters the DOM
 * (MutationObserver), when it is painted (Element Timing on its heading: the heading's text is
 * painted with the result) and when its snippet first carries highlight.js classes.
 */
function installProbe(): void {
  const w = window as unknown as { __probe: { shown?: number; painted?: number; highlighted?: number } };
  w.__probe = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEntry & { identifier?: string; renderTime?: number })[])
      if (e.identifier === "bench-first-result" && w.__probe.painted === undefined) w.__probe.painted = e.renderTime || e.startTime;
  }).observe({ type: "element", buffered: true });
  new MutationObserver((_, obs) => {
    const first = document.querySelector("#results .result");
    if (!first) return;
    if (w.__probe.shown === undefined) {
      w.__probe.shown = performance.now();
      first.querySelector("h2")?.setAttribute("elementtiming", "bench-first-result");
    }
    if (first.querySelector("pre [class*=hljs-]")) {
      w.__probe.highlighted = performance.now();
      obs.disconnect();
    }
  }).observe(document, { subtree: true, childList: true });
}

/** Loads the search page for `q` in `page` and reads the probe and the Navigation / Resource Timing phases. */
async function visit(page: Page, baseUrl: string, repo: string, q: string): Promise<VisitProbe> {
  await page.goto(`${baseUrl}/?q=${encodeURIComponent(q)}&repo=${encodeURIComponent(repo)}`);
  await page.locator("#results .result").first().waitFor({ timeout: 60_000 });
  await page
    .waitForFunction(() => (window as unknown as { __probe: { highlighted?: number } }).__probe.highlighted !== undefined, null, { timeout: HIGHLIGHT_WAIT_MS })
    .catch(() => undefined);
  // Element Timing reports the paint a frame later; give it a moment.
  await page
    .waitForFunction(() => (window as unknown as { __probe: { painted?: number } }).__probe.painted !== undefined, null, { timeout: 1000 })
    .catch(() => undefined);
  return page.evaluate(() => {
    const probe = (window as unknown as { __probe: { shown: number; painted?: number; highlighted?: number } }).__probe;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const api = resources.find((e) => e.name.includes("/api/search?"));
    // The scripts the page names in its head (entry and modulepreloads): all in = the page can run.
    const scripts = new Set(Array.from(document.querySelectorAll<HTMLScriptElement>("script[src]"), (x) => x.src));
    for (const l of Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'))) scripts.add(l.href);
    const ends = resources.filter((e) => scripts.has(e.name)).map((e) => e.responseEnd);
    return {
      shownMs: probe.shown,
      paintedMs: probe.painted ?? null,
      highlightedMs: probe.highlighted ?? null,
      htmlEndMs: nav?.responseEnd ?? null,
      scriptsEndMs: ends.length ? Math.max(...ends) : null,
      searchStartMs: api?.startTime ?? null,
      searchEndMs: api?.responseEnd ?? null,
    };
  });
}

/** Signs in at `baseUrl` with the admin `token`; returns the browser storage state holding the session cookie. */
async function signInState(browser: Browser, baseUrl: string, token: string): Promise<BrowserContextOptions["storageState"]> {
  const signIn = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const login = await signIn.newPage();
  await login.goto(`${baseUrl}/login`);
  await login.locator('input[name="admin_token"]').fill(token);
  await Promise.all([login.waitForURL(`${baseUrl}/`), login.locator('input[name="admin_token"]').press("Enter")]);
  const state = await signIn.storageState();
  await signIn.close();
  return state;
}

/** One query's first visit (fresh context: empty cache) and repeat visit (same context: assets cached). */
async function measureQuery(
  browser: Browser,
  baseUrl: string,
  storageState: BrowserContextOptions["storageState"],
  repo: string,
  q: string,
): Promise<FirstResultTiming> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, storageState });
  await context.addInitScript(installProbe);
  try {
    const page = await context.newPage();
    const cold = await visit(page, baseUrl, repo, q);
    const warm = await visit(page, baseUrl, repo, q);
    return {
      query: q,
      coldMs: cold.shownMs,
      warmMs: warm.shownMs,
      coldPaintedMs: cold.paintedMs,
      warmPaintedMs: warm.paintedMs,
      coldHighlightedMs: cold.highlightedMs,
      htmlEndMs: cold.htmlEndMs,
      scriptsEndMs: cold.scriptsEndMs,
      searchStartMs: cold.searchStartMs,
      searchEndMs: cold.searchEndMs,
      warmSearchEndMs: warm.searchEndMs,
    };
  } finally {
    await context.close();
  }
}

/**
 * Signs in at `baseUrl` with the admin `token`, then for each query loads the search page
 * twice: first in a fresh browser context (nothing cached: every asset is downloaded), then
 * again in the same context (the browser cache holds the assets), and measures navigation
 * start -> first `.result` in the DOM, -> painted, -> highlighted (performance.now() in the
 * page). `rounds` repeats the query list (more samples on a noisy machine). Returns null when
 * Chromium is missing (CHROMIUM_PATH, default /usr/bin/chromium).
 */
export async function measureFirstResult(
  baseUrl: string,
  token: string,
  repo: string,
  queries: readonly string[],
  rounds = 1,
): Promise<FirstResultTiming[] | null> {
  const paired = await measureFirstResultPaired([baseUrl], token, repo, queries, rounds);
  return paired?.[0] ?? null;
}

/**
 * measureFirstResult against several servers of the same corpus (e.g. a branch and main) in
 * the same period, for a paired comparison on a shared machine: each query is measured on
 * every server in turn before the next query, the order rotating by one each query so none is
 * always first. Returns one timing list per server, in `baseUrls` order (same queries, same
 * order), or null without Chromium.
 */
export async function measureFirstResultPaired(
  baseUrls: readonly string[],
  token: string,
  repo: string,
  queries: readonly string[],
  rounds = 1,
): Promise<FirstResultTiming[][] | null> {
  if (!existsSync(CHROMIUM_PATH)) return null;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const states = [];
    for (const url of baseUrls) states.push(await signInState(browser, url, token));
    const out: FirstResultTiming[][] = baseUrls.map(() => []);
    let turn = 0;
    for (let round = 0; round < rounds; round++) {
      for (const q of queries) {
        for (let i = 0; i < baseUrls.length; i++) {
          const s = (i + turn) % baseUrls.length;
          out[s].push(await measureQuery(browser, baseUrls[s], states[s], repo, q));
        }
        turn++;
      }
    }
    return out;
  } finally {
    await browser.close();
  }
}
