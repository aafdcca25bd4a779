/**
 * @module worker/search/grep/trigram-query
 *
 * A `Requirement` (worker/search/grep/literals.ts) as an FTS5 MATCH expression over the
 * `grep_trigrams` table (migrations/0008): a literal of at least 3 characters becomes the AND
 * of its trigrams, each a quoted string (one token of the trigram tokenizer; `detail=none`
 * supports no phrases). Shorter literals require nothing. The index folds case and so does
 * the tokenizer on the query, so the expression serves case-sensitive and -insensitive
 * searches alike: it selects candidates, the engine decides. Pure.
 */
import type { Requirement } from "./literals";

/** Most trigrams taken from one literal: more cost posting-list reads and filter little (zoekt likewise uses the rarest few). */
export const TRIGRAMS_PER_LITERAL_MAX = 8;
/** Most trigrams in one MATCH expression; a larger `or` requires nothing instead (the scan fallback). */
export const TRIGRAMS_PER_QUERY_MAX = 48;

type Tri = { kind: "tri"; tri: string };
type Node = Tri | { kind: "and" | "or"; of: Node[] } | { kind: "any" };

const ANY: Node = { kind: "any" };

/**
 * Trigrams of a literal, at most TRIGRAMS_PER_LITERAL_MAX: non-overlapping ones from the start,
 * the last one, then overlapping ones in between, so the whole literal is covered first.
 * Characters are code points (the tokenizer counts characters, not UTF-16 units).
 */
export function literalTrigrams(text: string): string[] {
  const chars = [...text];
  if (chars.length < 3) return [];
  const all = chars.slice(0, chars.length - 2).map((_, i) => chars.slice(i, i + 3).join(""));
  const order: number[] = [];
  for (let i = 0; i < all.length; i += 3) order.push(i);
  if (!order.includes(all.length - 1)) order.push(all.length - 1);
  for (let i = 0; i < all.length; i++) if (!order.includes(i)) order.push(i);
  const picked = new Set<string>();
  for (const i of order) {
    if (picked.size >= TRIGRAMS_PER_LITERAL_MAX) break;
    picked.add(all[i]);
  }
  return [...picked];
}

function toNode(req: Requirement, caseInsensitive: boolean): Node {
  switch (req.kind) {
    case "any":
      return ANY;
    case "lit": {
      // Case-insensitive matching knows case pairs the tokenizer's folding may not (the Kelvin
      // sign and k): trigrams with non-ASCII characters then require nothing.
      const tris = literalTrigrams(req.text).filter((t) => !caseInsensitive || /^[\x00-\x7f]*$/.test(t));
      const nodes: Node[] = tris.map((tri) => ({ kind: "tri", tri }));
      return nodes.length === 0 ? ANY : nodes.length === 1 ? nodes[0] : { kind: "and", of: nodes };
    }
    case "and": {
      const parts = req.of.map((r) => toNode(r, caseInsensitive)).filter((n) => n.kind !== "any");
      return parts.length === 0 ? ANY : parts.length === 1 ? parts[0] : { kind: "and", of: parts };
    }
    case "or": {
      const parts = req.of.map((r) => toNode(r, caseInsensitive));
      return parts.some((n) => n.kind === "any") ? ANY : { kind: "or", of: parts };
    }
  }
}

function count(n: Node): number {
  return n.kind === "tri" ? 1 : n.kind === "any" ? 0 : n.of.reduce((s, c) => s + count(c), 0);
}

/**
 * Drops `and` members (still a superset) until the expression has at most `max` trigrams. An
 * `or` gets an equal share per branch (`version\d` is ten branches of six trigrams: each keeps
 * its first four); one that cannot give every branch a trigram becomes `any`.
 */
function prune(n: Node, max: number): Node {
  if (count(n) <= max) return n;
  if (n.kind === "or") {
    const share = Math.floor(max / n.of.length);
    if (share < 1) return ANY;
    const parts = n.of.map((c) => prune(c, share));
    return parts.some((c) => c.kind === "any") ? ANY : { kind: "or", of: parts };
  }
  if (n.kind === "and") {
    const kept: Node[] = [];
    let used = 0;
    for (const c of n.of) {
      const fitted = prune(c, max - used);
      if (fitted.kind === "any") continue;
      kept.push(fitted);
      used += count(fitted);
      if (used >= max) break;
    }
    return kept.length === 0 ? ANY : kept.length === 1 ? kept[0] : { kind: "and", of: kept };
  }
  return ANY;
}

function render(n: Node): string {
  if (n.kind === "tri") return `"${n.tri.replace(/"/g, '""')}"`;
  if (n.kind === "any") return "";
  const joined = n.of.map((c) => (c.kind === "tri" ? render(c) : `(${render(c)})`)).join(n.kind === "and" ? " AND " : " OR ");
  return joined;
}

/** The FTS5 MATCH expression for `req`, or null when it requires no trigram (the pattern has no usable literal: scan). */
export function trigramMatch(req: Requirement, caseInsensitive: boolean): string | null {
  const node = prune(toNode(req, caseInsensitive), TRIGRAMS_PER_QUERY_MAX);
  return node.kind === "any" ? null : render(node);
}
