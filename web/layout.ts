/**
 * The frame every web page shares: head (one stylesheet, one deferred script, both
 * same-origin so the CSP needs no 'unsafe-inline'), the header with navigation and the
 * account line that the script fills in. `hono/html` escapes every interpolated value.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Which page is shown, for the navigation's `aria-current`. */
export type WebPageName = "search" | "repos" | "source";

/**
 * Wraps `main` in the document. `script` is the bundle name under /assets/ (web/client/<script>.ts).
 */
export function pageShell(o: { title: string; page: WebPageName; script: "search" | "source" | "repos"; main: Html }): Html {
  const current = (p: WebPageName) => (o.page === p ? html` aria-current="page"` : "");
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${o.title}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/assets/styles.css" />
    <script type="module" src="/assets/${o.script}.js"></script>
  </head>
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
