/**
 * @module worker/search/foreign-names
 *
 * Compound names a pasted bug report writes that the searched repositories never contain: the
 * reporter's own tests, helpers and variables (`test_all_even`, `is_even`, `even_stevens`),
 * another library's names, memory addresses (`0x101f82ed0`). Their whole form has no document
 * frequency in the searched snapshots, so they are not the repository's names, and the words
 * inside them ("even", "stevens") say nothing about where the bug is. A word the report uses
 * only inside foreign names is no query term, and occurrences inside them do not count towards
 * any term's query-term frequency. A compound the repository does contain (a hook the report
 * implements, a method it overrides) is evidence as before. Pure: document frequencies come
 * from the caller.
 */
import { splitIdentifier, tokenize } from "../../indexer/store/contract";

/** Identifiers, as the tokenizer reads them (indexer/store/tokenize.ts). */
const IDENT_RE = /[\p{L}\p{N}_$]+/gu;

/**
 * The compound identifiers of `text` (two or more parts: `test_all_even`, `isEven`), each with
 * its whole form as the index holds it (tokenize's first token: lowercased, `_` and `$` dropped).
 * The foreign names are those whose whole form the searched snapshots do not contain.
 */
export function compoundNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  const checked = new Set<string>();
  for (const [name] of text.matchAll(IDENT_RE)) {
    if (checked.has(name)) continue;
    checked.add(name);
    if (splitIdentifier(name).length < 2) continue;
    const whole = tokenize(name)[0];
    if (whole) names.set(name, whole);
  }
  return names;
}

/**
 * The tokens of `text` that occur only inside occurrences of `foreign` names (whole
 * identifiers): the words those names are made of and nothing else in the text says.
 * Lowercased, as `tokenize` gives them.
 */
export function foreignOnlyTokens(text: string, foreign: ReadonlySet<string>): Set<string> {
  const inside = new Set<string>();
  const elsewhere = new Set<string>();
  for (const [name] of text.matchAll(IDENT_RE)) for (const t of tokenize(name)) (foreign.has(name) ? inside : elsewhere).add(t);
  for (const t of elsewhere) inside.delete(t);
  return inside;
}

/** `text` with every whole occurrence of a `foreign` name replaced by a space, so counting its tokens leaves them out. */
export function withoutNames(text: string, foreign: ReadonlySet<string>): string {
  return foreign.size ? text.replace(IDENT_RE, (w) => (foreign.has(w) ? " " : w)) : text;
}
