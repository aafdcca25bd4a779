/**
 * The frame every web page shares: head (one stylesheet, one deferred script, both
 * same-origin so the CSP needs no 'unsafe-inline'), the header with navigation and the
 * account line that the script fills in. `hono/html` escapes every interpolated value.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { ENTRY_FILES, ENTRY_IMPORTS, ENTRY_LAZY_IMPORTS, LANGUAGE_CHUNKS } from "./assets/bundle.gen";
import { highlightLanguage } from "./client/highlight-languages";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Which page is shown, for the navigation's `aria-current`. */
export type WebPageName = "search" | "repos" | "source";

/** What a page shell is made of. */
export interface PageShellOptions {
  title: string;
  page: WebPageName;
  /** The bundle under /assets/ (web/client/<script>.ts). */
  script: "search" | "source" | "repos";
  main: Html;
  /** Index languages whose highlighter the page will need at once (their chunks are preloaded). */
  languages?: string[];
  /** A same-origin API URL the script fetches first; preloaded so it starts while the HTML is parsed. */
  preloadFetch?: string;
}

/**
 * Wraps `main` in the document. The script's chunks (scripts/build-web.ts: those it imports
 * statically, and those it imports after its first draw) are named in `<link rel="modulepreload">`
 * so the browser fetches (and compiles, without running) them beside the entry rather than
 * after parsing it; `preloadFetch` is fetched at once with the credentials mode of the page's fetch
 * (`crossorigin="anonymous"`: same-origin cookies), so the script's request reuses it.
 */
export function pageShell(o: PageShellOptions): Html {
  const current = (p: WebPageName) => (o.page === p ? html` aria-current="page"` : "");
  const chunks = [...(ENTRY_IMPORTS[o.script] ?? []), ...(ENTRY_LAZY_IMPORTS[o.script] ?? [])];
  for (const l of o.languages ?? []) {
    const chunk = LANGUAGE_CHUNKS[highlightLanguage(l) ?? ""];
    if (chunk && !chunks.includes(chunk)) chunks.push(chunk);
  }
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${o.title}</title>
    <link rel="icon" href="data:," />
    ${o.preloadFetch ? html`<link rel="preload" as="fetch" href="${o.preloadFetch}" crossorigin="anonymous" />
    ` : ""}    <link rel="stylesheet" href="/assets/${ENTRY_FILES.styles}" />
    <script type="module" src="/assets/${ENTRY_FILES[o.script]}"></script>
    ${chunks.map((c) => html`<link rel="modulepreload" href="/assets/${c}" />
    `)}  </head>
  <body>
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <a class="brand" href="/">Codebase Copilot</a>
      <nav aria-label="Pages" class="nav">
        <a href="/"${current("search")}>Search</a>
        <a href="/repos"${current("repos")}>Repositories</a>
      </nav>
      <div id="account" class="account" aria-live="polite"></div>
    </header>
    <main id="main" tabindex="-1">${o.main}</main>
  </body>
</html>`;
}
