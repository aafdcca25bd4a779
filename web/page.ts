/**
 * The search page's HTML shell, server-rendered with `hono/html` (every interpolated value is
 * escaped). The script `/assets/search.js` fills in the account, the repo list and the results.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

/** What the page is rendered with: the query and repo from the URL (`/?q=&repo=`). */
export interface SearchPageOptions {
  q?: string;
  repo?: string;
}

/** Renders the page. `q` and `repo` only prefill the form; the browser runs the search. */
export function renderSearchPage(o: SearchPageOptions): HtmlEscapedString | Promise<HtmlEscapedString> {
  const q = o.q ?? "";
  const repo = o.repo ?? "";
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${q ? `${q} · ` : ""}Codebase Copilot search</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/assets/search.css" />
    <script src="/assets/search.js" defer></script>
  </head>
  <body>
    <a class="skip" href="#results">Skip to results</a>
    <header class="top">
      <h1>Codebase Copilot</h1>
      <div id="account" class="account" aria-live="polite"></div>
    </header>
    <main>
      <form id="search-form" role="search" action="/" method="get" aria-label="Code search">
        <div class="field grow">
          <label for="q">Search code</label>
          <input id="q" name="q" type="search" value="${q}" placeholder="a function name, a question, an error message" autocomplete="off" spellcheck="false" required />
        </div>
        <div class="field">
          <label for="repo">Repository</label>
          <select id="repo" name="repo">
            <option value="">All repositories</option>
            ${repo ? html`<option value="${repo}" selected>${repo}</option>` : ""}
          </select>
        </div>
        <button type="submit">Search</button>
      </form>
      <p class="hint">Press <kbd>/</kbd> to focus the search box. Results link to the source lines.</p>
      <p id="status" class="status" role="status" aria-live="polite"></p>
      <ol id="results" class="results" aria-label="Search results" tabindex="-1"></ol>
      <noscript><p class="status">This page needs JavaScript to search; scripts can call <code>GET /api/search</code> directly.</p></noscript>
    </main>
  </body>
</html>`;
}
