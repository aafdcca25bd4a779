/**
 * @module indexer/chunk/markdown
 *
 * Markdown chunked by headings: each ATX (`## Title`) or setext heading starts a `section`
 * chunk whose symbol is the heading text and whose container is the parent heading. Headings
 * inside fenced code blocks do not count. A section longer than the limit is split into
 * overlapping windows that keep its heading.
 */
import type { Chunk, ChunkedFile, SymbolDef } from "../store/contract";
import { isBlank, trimBlank } from "./lines";
import { lineWindows, type WindowOptions } from "./windows";

interface Heading {
  line: number;
  level: number;
  text: string;
}

const ATX_RE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT_RE = /^ {0,3}(=+|-+)[ \t]*$/;

function findHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    const f = FENCE_RE.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0].repeat(f[1].length);
      else if (f[1].startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = ATX_RE.exec(line);
    if (atx) {
      out.push({ line: i + 1, level: atx[1].length, text: (atx[2] ?? "").trim() });
      continue;
    }
    // Setext: a paragraph line underlined by === (h1) or --- (h2).
    const next = lines[i + 1]?.replace(/\r$/, "");
    if (next !== undefined && !isBlank(line) && SETEXT_RE.test(next) && !/^\s{4}/.test(line) && !/^\s*[-*+>|]/.test(line)) {
      out.push({ line: i + 1, level: next.trim()[0] === "=" ? 1 : 2, text: line.trim() });
      i++;
    }
  }
  return out;
}

/** Chunks a markdown file by headings. `maxLines` bounds a section before it is windowed. */
export function chunkMarkdown(lines: string[], maxLines: number, windows: WindowOptions): ChunkedFile {
  const headings = findHeadings(lines);
  const chunks: Chunk[] = [];
  const symbols: SymbolDef[] = [];
  const stack: Heading[] = [];
  const firstHeading = headings[0]?.line ?? lines.length + 1;
  if (firstHeading > 1) chunks.push(...lineWindows(lines, 1, firstHeading - 1, { ...windows, size: maxLines }, "section"));
  headings.forEach((h, i) => {
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    const container = stack.length ? stack[stack.length - 1].text : undefined;
    stack.push(h);
    const end = (headings[i + 1]?.line ?? lines.length + 1) - 1;
    const range = trimBlank(lines, h.line, end);
    if (!range) return;
    const meta = { symbol: h.text || undefined, container };
    symbols.push({ name: h.text, kind: "section", container, startLine: range[0], endLine: range[1] });
    chunks.push(...lineWindows(lines, range[0], range[1], { ...windows, size: Math.max(maxLines, windows.size) }, "section", meta));
  });
  return { language: "markdown", chunks, symbols: symbols.filter((s) => s.name), imports: [] };
}
