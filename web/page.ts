/**
 * The search page, server-rendered with `hono/html` (every interpolated value is escaped).
 * The URL's query only prefills the form; /assets/search.js (web/client/search.ts) runs the
 * search, so the same URL can be shared.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { KNOWN_LANGUAGES } from "../indexer/chunk/languages";
import { pageShell } from "./layout";

/** What the page is rendered with: the query from the URL (`/?q=&repo=&language=&path=&tests=&mode=`). */
export interface SearchPageOptions {
  q?: string;
  repo?: string;
  language?: string;
  path?: string;
  includeTests?: boolean;
  mode?: string;
  /** Which tab is open: search (default) or ask (`/?tab=ask`). */
  tab?: "search" | "ask";
  /** The `GET /api/search` URL the page's script sends first (preloaded); none without a query. */
  searchApiUrl?: string;
}

const MODES: [string, string][] = [
  ["hybrid", "Hybrid (all channels)"],
  ["bm25", "Keywords (BM25)"],
  ["vector", "Meaning (vector)"],
  ["symbol", "Symbol names"],
];

/** Renders the page. */
export function renderSearchPage(o: SearchPageOptions): HtmlEscapedString | Promise<HtmlEscapedString> {
  const q = o.q ?? "";
  const repo = o.repo ?? "";
  const sel = (on: boolean) => (on ? html` selected` : "");
  const ask = o.tab === "ask";
  const main = html`<h1 class="visually-hidden">Code search</h1>
      <div class="tabs" role="tablist" aria-label="Search or ask">
        <button type="button" role="tab" id="tab-search" aria-controls="search-panel" aria-selected="${ask ? "false" : "true"}"${ask ? html` tabindex="-1"` : ""}>Search</button>
        <button type="button" role="tab" id="tab-ask" aria-controls="ask-panel" aria-selected="${ask ? "true" : "false"}"${ask ? "" : html` tabindex="-1"`}>Ask a question</button>
      </div>
      <section id="search-panel" role="tabpanel" aria-labelledby="tab-search"${ask ? html` hidden` : ""}>
      <form id="search-form" role="search" action="/" method="get" aria-label="Code search">
        <div class="row">
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
          <div class="field" id="ref-field" hidden>
            <label for="ref">Branch or tag</label>
            <select id="ref" name="ref">
              <option value="">Default branch</option>
            </select>
          </div>
          <button type="submit">Search</button>
        </div>
        <fieldset class="row filters">
          <legend>Filters</legend>
          <div class="field">
            <label for="language">Language</label>
            <select id="language" name="language">
              <option value="">Any language</option>
              ${KNOWN_LANGUAGES.map((l) => html`<option value="${l}"${sel(l === o.language)}>${l}</option>`)}
            </select>
          </div>
          <div class="field grow">
            <label for="path">Path</label>
            <input id="path" name="path" type="text" value="${o.path ?? ""}" placeholder="src/router/ or src/**/*.ts" autocomplete="off" spellcheck="false" aria-describedby="path-help" />
            <span id="path-help" class="help">A folder prefix, or a glob where the server supports globs.</span>
          </div>
          <div class="field">
            <label for="mode">Mode</label>
            <select id="mode" name="mode">
              ${MODES.map(([v, label]) => html`<option value="${v}"${sel(v === (o.mode ?? "hybrid"))}>${label}</option>`)}
            </select>
          </div>
          <div class="field check">
            <input id="tests" name="tests" type="checkbox" value="1"${o.includeTests ? html` checked` : ""} />
            <label for="tests">Include tests</label>
          </div>
        </fieldset>
      </form>
      <p class="hint">Keys: <kbd>/</kbd> search box, <kbd>j</kbd> / <kbd>k</kbd> next and previous result, <kbd>Enter</kbd> open it.</p>
      <p id="status" class="status" role="status" aria-live="polite"></p>
      <ol id="results" class="results" aria-label="Search results" tabindex="-1"></ol>
      <button id="more" type="button" class="secondary" hidden>More results</button>
      </section>
      <section id="ask-panel" role="tabpanel" aria-labelledby="tab-ask" class="ask"${ask ? "" : html` hidden`}>
        <form id="ask-form" aria-label="Ask a question">
          <div class="row">
            <div class="field grow">
              <label for="question">Question</label>
              <textarea id="question" name="question" rows="3" placeholder="How does the router match a path with parameters?"></textarea>
            </div>
            <div class="field">
              <label for="ask-repo">Ask about</label>
              <select id="ask-repo" name="repo">
                <option value="">All repositories</option>
                ${repo ? html`<option value="${repo}" selected>${repo}</option>` : ""}
              </select>
            </div>
          </div>
          <p class="help">A model reads the code the search finds and answers; the answer cites that code, and only citations the server could verify are shown as links. Each answer spends model tokens.</p>
          <button type="submit">Ask</button>
        </form>
        <div id="answer" class="answer" aria-live="polite"></div>
      </section>
      <noscript><p class="status">This page needs JavaScript to search; scripts can call <code>GET /api/search</code> directly.</p></noscript>`;
  return pageShell({
    title: q ? `${q} · Codebase Copilot search` : "Codebase Copilot search",
    page: "search",
    script: "search",
    main,
    preloadFetch: o.searchApiUrl,
    // A language filter names the one highlighter the results need.
    languages: o.language ? [o.language] : [],
  });
}
