/**
 * @module worker/search/grep/text-filter
 *
 * A `Requirement` (worker/search/grep/literals.ts) as an SQL condition on `files.text`, so D1
 * returns only the texts that hold the literals every match needs: the trigram index folds case
 * and ignores order, so many of its candidates lack the literal itself, and a text that D1
 * keeps costs nothing to transfer (the bytes read from D1 dominate a grep's time, measured in
 * `npm run bench:grep`). The condition is the whole-text form of the matcher's line prefilter
 * (worker/search/grep/matcher.ts), so it drops only files the matcher would find no line in:
 * `instr` for case-sensitive literals; lowercased ASCII for case-insensitive ones, passing every
 * text with a non-ASCII character (SQLite's lower() folds ASCII only, and RE2 folds the Kelvin
 * sign to k). Pure.
 */
import type { Requirement } from "./literals";

/** Most literals bound in one condition (D1 allows 100 bound parameters a statement; the id list takes the rest). */
export const TEXT_FILTER_LITERALS_MAX = 8;

/** An SQL boolean expression over the column `text` with `?` placeholders, and their values in order. */
export interface TextFilter {
  sql: string;
  params: string[];
}

/** Keeps at most `max` literals: `and` drops members (still implied), an `or` that does not fit requires nothing. */
function fit(r: Requirement, max: number): Requirement | null {
  switch (r.kind) {
    case "any":
      return null;
    case "lit":
      return max >= 1 ? r : null;
    case "or": {
      const parts = r.of.map((c) => fit(c, max));
      if (parts.some((p) => p === null)) return null;
      const n = parts.reduce((s, p) => s + count(p!), 0);
      return n <= max ? { kind: "or", of: parts as Requirement[] } : null;
    }
    case "and": {
      const kept: Requirement[] = [];
      let used = 0;
      // Longer literals first: they rule out more texts.
      for (const c of [...r.of].sort((x, y) => longest(y) - longest(x))) {
        const f = fit(c, max - used);
        if (!f) continue;
        kept.push(f);
        used += count(f);
      }
      return kept.length === 0 ? null : kept.length === 1 ? kept[0] : { kind: "and", of: kept };
    }
  }
}

function count(r: Requirement): number {
  return r.kind === "lit" ? 1 : r.kind === "any" ? 0 : r.of.reduce((s, c) => s + count(c), 0);
}

function longest(r: Requirement): number {
  return r.kind === "lit" ? r.text.length : r.kind === "any" ? 0 : Math.min(...r.of.map(longest));
}

/**
 * The condition for `req`, or null when nothing can be required (then every candidate text is
 * read). `caseSensitive` is the matcher's: false when the pattern folds case anywhere.
 */
export function textFilter(req: Requirement, caseSensitive: boolean): TextFilter | null {
  const r = fit(req, TEXT_FILTER_LITERALS_MAX);
  if (!r) return null;
  const params: string[] = [];
  const lits: string[] = [];
  const walk = (n: Requirement) => (n.kind === "lit" ? lits.push(n.text) : n.kind !== "any" && n.of.forEach(walk));
  walk(r);
  if (!caseSensitive && lits.some((t) => /[^\x00-\x7f]/.test(t))) return null;
  const subject = caseSensitive ? "text" : "lower(text)";
  const render = (n: Requirement): string => {
    if (n.kind === "lit") {
      params.push(caseSensitive ? n.text : n.text.toLowerCase());
      return `instr(${subject}, ?) > 0`;
    }
    if (n.kind === "any") return "1";
    return `(${n.of.map(render).join(n.kind === "and" ? " AND " : " OR ")})`;
  };
  const sql = render(r);
  // length() counts characters, length(CAST ... AS BLOB) bytes: equal exactly when all is ASCII.
  return caseSensitive ? { sql, params } : { sql: `(length(CAST(text AS BLOB)) <> length(text) OR ${sql})`, params };
}
