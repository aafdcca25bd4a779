/**
 * The source view (`/source/{repo}/{path}?exp=&sig=`, signed links from search, MCP `search`
 * and `fetch`): numbered lines with anchors `L1`, `L2`..., an outline sidebar of the file's
 * symbols, and /assets/source.js (web/client/source.ts), which highlights the syntax, lands on
 * the range of the fragment (`#L146-L171`) and looks up symbols. Server-rendered with
 * `hono/html`, so the file's text is escaped.
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { pageShell } from "./layout";

/** One outline entry; lines are 1-based and inclusive. */
export interface OutlineEntry {
  name: string;
  kind: string;
  container: string | null;
  startLine: number;
  endLine: number;
}

/** What the source view shows. */
export interface SourcePageOptions {
  repo: string;
  path: string;
  language: string;
  /** The ref shown (full name), when the link named one (issue #49); absent: the default snapshot. */
  ref?: string | null;
  commit: string;
  text: string;
  outline: OutlineEntry[];
}

/** Renders the source view of one file. */
export function renderSourcePage(o: SourcePageOptions): HtmlEscapedString | Promise<HtmlEscapedString> {
  const lines = o.text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const range = (s: number, e: number) => (s === e ? `#L${s}` : `#L${s}-L${e}`);
  const main = html`<div class="file-head">
        <h1><code>${o.repo}</code> / <code>${o.path}</code></h1>
        <p class="meta">${o.language} · ${lines.length} lines ·${o.ref ? html` ${o.ref.replace(/^refs\/(heads|tags)\//, "")}` : ""} commit <code>${o.commit.slice(0, 12)}</code></p>
        <p id="range-status" class="meta" aria-live="polite"></p>
        <p id="range-commit" class="meta" aria-live="polite"></p>
      </div>
      <div class="source-layout">
        <nav class="outline" aria-label="Outline">
          <h2>Outline</h2>
          ${o.outline.length
            ? html`<ul>
                ${o.outline.map(
                  (s) => html`<li><a href="${range(s.startLine, s.endLine)}" data-symbol="${s.name}"><span class="kind">${s.kind}</span> ${s.container ? `${s.container}.` : ""}${s.name}</a></li>`,
                )}
              </ul>`
            : html`<p class="help">No symbols in this file.</p>`}
        </nav>
        <div class="code-wrap">
          <pre class="code hljs source" id="code" data-repo="${o.repo}" data-path="${o.path}" data-language="${o.language}" data-commit="${o.commit}" data-ref="${o.ref ?? ""}"><code>${lines.map(
            (line, i) => html`<span class="line" id="L${i + 1}"><a class="n" href="#L${i + 1}" aria-label="Line ${i + 1}">${i + 1}</a><span class="c">${line}</span></span>`,
          )}</code></pre>
        </div>
        <aside id="lookup" class="lookup" aria-label="Symbol lookup" hidden></aside>
      </div>`;
  return pageShell({ title: `${o.path} · ${o.repo} · Codebase Copilot`, page: "source", script: "source", main, languages: [o.language] });
}
