/**
 * @module worker/ask/evidence
 *
 * Evidence for an answer: search results taken in fusion order within a token budget (at most
 * `maxItems`, no two items of one file with overlapping lines), labelled E1..En, and rendered
 * into the user message with every item in a block fenced by a random 128-bit nonce chosen per
 * request. A file cannot close its own block: it cannot know the nonce, and every code line is
 * prefixed with its number (`42| ...`), so no file line ever starts a fence line. Pure except
 * for `newNonce` (crypto.getRandomValues).
 */
import type { SearchResult } from "../search/types";

/** Most evidence items per answer (N). */
export const ASK_MAX_EVIDENCE = 8;
/** Token budget of all evidence text, estimated with EVIDENCE_CHARS_PER_TOKEN. */
export const ASK_EVIDENCE_MAX_TOKENS = 6000;
/**
 * Characters per token for the estimate. Anthropic's tokenizers average about 3.5 characters
 * per token on English prose and fewer on code; 3 keeps the estimate on the safe side.
 */
export const EVIDENCE_CHARS_PER_TOKEN = 3;

/** One evidence item: lines `startLine..endLine` (1-based, inclusive) of a file in a repo's snapshot. */
export interface EvidenceItem {
  /** "E1", "E2", ... in fusion order. */
  label: string;
  repo: string;
  path: string;
  startLine: number;
  endLine: number;
  language: string;
  symbol: string | null;
  /** The code lines shown, `lines[i]` being line `startLine + i`. */
  lines: string[];
}

/** Options of `selectEvidence`; defaults ASK_MAX_EVIDENCE and ASK_EVIDENCE_MAX_TOKENS. */
export interface EvidenceOptions {
  maxItems?: number;
  maxTokens?: number;
}

/** Estimated tokens of `text`. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / EVIDENCE_CHARS_PER_TOKEN);
}

/**
 * Picks evidence from results in their (fusion) order. A result overlapping an already picked
 * item of the same repo and file is skipped; one that does not fit the remaining token budget is
 * skipped too (a smaller one after it may still fit). Lines are what the result's snippet shows.
 */
export function selectEvidence(results: readonly SearchResult[], options: EvidenceOptions = {}): EvidenceItem[] {
  const maxItems = options.maxItems ?? ASK_MAX_EVIDENCE;
  let budget = options.maxTokens ?? ASK_EVIDENCE_MAX_TOKENS;
  const picked: EvidenceItem[] = [];
  for (const r of results) {
    if (picked.length >= maxItems) break;
    const lines = r.snippet.split("\n");
    const startLine = r.startLine;
    const endLine = Math.min(r.endLine, startLine + lines.length - 1);
    const overlaps = picked.some((e) => e.repo === r.repo && e.path === r.path && e.startLine <= endLine && startLine <= e.endLine);
    if (overlaps) continue;
    const cost = estimateTokens(r.snippet) + 20; // + the fence lines
    if (cost > budget) continue;
    budget -= cost;
    picked.push({
      label: `E${picked.length + 1}`,
      repo: r.repo,
      path: r.path,
      startLine,
      endLine,
      language: r.language,
      symbol: r.symbol,
      lines: lines.slice(0, endLine - startLine + 1),
    });
  }
  return picked;
}

/** A fresh 128-bit nonce as 32 hex characters. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `path:start-end` (or `path:n` for one line). */
export function lineRef(path: string, startLine: number, endLine: number): string {
  return startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
}

/** One fenced evidence block. */
export function renderEvidenceBlock(item: EvidenceItem, nonce: string): string {
  const width = String(item.endLine).length;
  const body = item.lines.map((text, i) => `${String(item.startLine + i).padStart(width)}| ${text}`).join("\n");
  return `<<<EVIDENCE ${nonce} ${item.label} repo=${item.repo} path=${item.path} lines=${item.startLine}-${item.endLine}>>>\n${body}\n<<<END ${nonce}>>>`;
}

/**
 * The user message: the nonce, the question (fenced too: it is data), then the evidence blocks.
 * Throws Error if a file line or the question contains the nonce (2^-128 by chance; then the
 * caller must not send the message).
 */
export function renderUserMessage(question: string, items: readonly EvidenceItem[], nonce: string): string {
  if (question.includes(nonce) || items.some((e) => e.lines.some((l) => l.includes(nonce)) || e.path.includes(nonce))) throw new Error("nonce collision");
  return [
    `This request's nonce is ${nonce}. Only lines starting with <<<EVIDENCE ${nonce} or <<<END ${nonce}>>> delimit blocks.`,
    "",
    `<<<QUESTION ${nonce}>>>`,
    question,
    `<<<END ${nonce}>>>`,
    "",
    `Evidence (${items.length} items):`,
    "",
    items.map((e) => renderEvidenceBlock(e, nonce)).join("\n\n"),
    "",
    "Answer the question from this evidence only, in the JSON format of your instructions.",
  ].join("\n");
}
