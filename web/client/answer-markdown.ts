/**
 * An answer's Markdown as DOM (issue 51: answers showed backticks and asterisks as text):
 * `marked` renders it, DOMPurify keeps only formatting (no script, style, handlers, images,
 * forms or raw HTML the model wrote), and the answer's citations `[E1 path:12-30]` become links
 * where the server verified them. Loaded by ask.ts when an answer arrives, so the search page's
 * first draw does not carry it (scripts/build-web.ts puts it in its own chunk). Works under the
 * page's CSP: no inline script or style is produced or needed.
 */
import DOMPurify from "dompurify";
import { marked } from "marked";

/** `[E1 path:12-30]`, the answer's citation form: evidence label, path, lines. */
const CITE_RE = /\[(E\d+) ([^\]\s]+):(\d+)-(\d+)\]/g;
/** Stands for the n-th citation while Markdown is rendered: letters only, so no Markdown rule touches it (a path's `__init__` would). */
const token = (n: number) => `CITEREFx${n}x`;
const TOKEN_RE = /CITEREFx(\d+)x/g;
const HAS_TOKEN = /CITEREFx\d+x/;

/** Elements and attributes an answer may use: text formatting, lists, code, tables, links. */
const ALLOWED_TAGS = [
  "p",
  "br",
  "strong",
  "em",
  "del",
  "code",
  "pre",
  "ul",
  "ol",
  "li",
  "blockquote",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "hr",
  "a",
];
const ALLOWED_ATTR = ["href", "title"];

/** A citation as found in the text: what it says and, if verified, the link to make of it. */
export interface CitationMatch {
  text: string;
  evidence: string;
  path: string;
  startLine: number;
  endLine: number;
}

/**
 * The answer's Markdown as a fragment: sanitized HTML, each citation passed to `cite` (which
 * returns a link for a verified one, or null to keep the text). Headings start at h3 (the page's
 * h1 and h2 are its own); links open outside the page only with rel=noopener.
 */
export function renderAnswerMarkdown(answer: string, cite: (c: CitationMatch) => Node | null): DocumentFragment {
  const found: CitationMatch[] = [];
  const marked_ = answer.replace(CITE_RE, (text, evidence: string, path: string, a: string, b: string) => {
    found.push({ text, evidence, path, startLine: Number(a), endLine: Number(b) });
    return token(found.length - 1);
  });
  const html = marked.parse(marked_, { async: false, gfm: true, breaks: true }).replace(/<(\/?)h[12]>/g, "<$1h3>");
  const fragment = DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: /^(?:https?:|#)/i, RETURN_DOM_FRAGMENT: true });
  for (const a of fragment.querySelectorAll("a")) a.setAttribute("rel", "noopener noreferrer");
  // Citations: split the text nodes holding a token (code spans included: a cited path may sit in one).
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_TEXT);
  const holders: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (HAS_TOKEN.test(n.nodeValue ?? "")) holders.push(n as Text);
  for (const node of holders) {
    const value = node.nodeValue ?? "";
    const parts: (Node | string)[] = [];
    let at = 0;
    for (const m of value.matchAll(TOKEN_RE)) {
      parts.push(value.slice(at, m.index));
      const c = found[Number(m[1])];
      parts.push(c ? (cite(c) ?? c.text) : m[0]);
      at = (m.index ?? 0) + m[0].length;
    }
    parts.push(value.slice(at));
    node.replaceWith(...parts);
  }
  return fragment;
}
