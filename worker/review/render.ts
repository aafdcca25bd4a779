/**
 * @module worker/review/render
 *
 * The review's first user message (prompts/review.task.v*.md filled in) and its fences. Each
 * diff file and whole file sits in a block fenced by a random 128-bit nonce chosen per review
 * (worker/ask/evidence.ts `newNonce`), and every line inside carries a number prefix, so no
 * repository line can start a fence line; tool results are fenced the same way. A nonce found
 * inside repository text (2^-128 by chance, or a leak) is masked before sending. Pure.
 */
import type { DiffFile } from "./diff";

/** One whole file under review: lines `1..lines.length` of `totalLines`. */
export interface ReviewFileText {
  path: string;
  totalLines: number;
  lines: string[];
}

/** Masks the nonce wherever repository text contains it. */
export function maskNonce(text: string, nonce: string): string {
  return text.includes(nonce) ? text.split(nonce).join("[nonce]") : text;
}

/** One diff file as a fenced block (line prefixes described in prompts/review.system.v1.md). */
export function renderDiffBlock(file: DiffFile, nonce: string): string {
  let width = 1;
  for (const h of file.hunks) for (const l of h.lines) if (l.newLine !== null) width = Math.max(width, String(l.newLine).length);
  const body: string[] = [];
  for (const h of file.hunks) {
    body.push(maskNonce(h.header, nonce));
    for (const l of h.lines) {
      const n = l.newLine === null ? " ".repeat(width) : String(l.newLine).padStart(width);
      const mark = l.kind === "add" ? "+" : l.kind === "del" ? "-" : " ";
      body.push(` ${n} ${mark}| ${maskNonce(l.text, nonce)}`);
    }
  }
  const renamed = file.status === "renamed" && file.oldPath ? ` from=${maskNonce(file.oldPath, nonce)}` : "";
  return `<<<DIFF ${nonce} file=${maskNonce(file.path, nonce)} status=${file.status}${renamed}>>>\n${body.join("\n")}\n<<<END ${nonce}>>>`;
}

/** One whole file as a fenced block, numbered lines. */
export function renderFileBlock(file: ReviewFileText, nonce: string): string {
  const width = String(Math.max(1, file.lines.length)).length;
  const body = file.lines.map((t, i) => `${String(i + 1).padStart(width)}| ${maskNonce(t, nonce)}`).join("\n");
  const cut = file.lines.length < file.totalLines ? `\n(lines ${file.lines.length + 1}-${file.totalLines} not shown: read them with read_file)` : "";
  return `<<<FILE ${nonce} file=${maskNonce(file.path, nonce)} lines=1-${file.lines.length} of ${file.totalLines}>>>\n${body}\n<<<END ${nonce}>>>${cut}`;
}

/** A tool's text result, fenced. */
export function renderToolResult(tool: string, text: string, nonce: string): string {
  return `<<<TOOL_RESULT ${nonce} tool=${tool}>>>\n${maskNonce(text, nonce)}\n<<<END ${nonce}>>>`;
}

/** Fills `{{name}}` placeholders of a task prompt; throws Error naming a placeholder left unfilled. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  const out = template.replace(/\{\{(\w+)\}\}/g, (m, name: string) => {
    if (!(name in values)) throw new Error(`task prompt placeholder {{${name}}} has no value`);
    return values[name];
  });
  return out;
}
