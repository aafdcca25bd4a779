/**
 * @module worker/search/rerank
 *
 * Second stage over the fused head: ranks candidates by how much of the query's information
 * they cover, then fuses that ranking with the channel fusion by RRF. Pure.
 *
 * Term coverage: the IDF-weighted share of distinct query terms that occur in a chunk (its
 * path, container, symbol and code), a term matching by its stem too (`routing` ~ `router`).
 * BM25 saturates each term's frequency but still lets one rare term that repeats carry a
 * chunk; natural-language questions describe several aspects of the code they want, and the
 * chunk that covers most of them is the better answer (the "coordination level" of classic IR,
 * e.g. Salton and McGill, Introduction to Modern Information Retrieval, 1983; coverage
 * features in learning-to-rank, Qin et al., LETOR 2010). Chunks without a definition (module
 * blocks, windows, doc sections) keep a share of their coverage: questions ask for code.
 * Declarations without behaviour (types, interfaces, enums, structs) keep a smaller share and their
 * final score is scaled by a prior: they repeat the nouns of a question ("token", "claims",
 * "event") in a few lines, so BM25 and coverage both favour them, yet questions ask where
 * something is done (on hono-50 every gold is a function, method or class).
 */
import { LRUCache } from "lru-cache";
import { stem } from "../../indexer/store/contract";
import { tokenize } from "../../indexer/store/contract";
import { RERANK, RRF_K } from "./ranking/weights";
import { idf } from "./terms";

/** What the reranker reads of a candidate. */
export interface RerankCandidate {
  chunkId: string;
  score: number;
  path: string;
  kind: string;
  symbol: string | null;
  container: string | null;
  content: string;
  /** Language of the chunk's file (`python`, `markdown`, `text` ...), when known. */
  language?: string;
}

/** What the rerank stage knows about the query beyond its terms. */
export interface RerankQuery {
  /** The query is a pasted bug report (ParsedQuery.isReport). */
  report?: boolean;
}

/** Languages of prose files (detectLanguage: `.md`, `.rst`, `.txt` and unknown extensions are markdown or text). */
export const PROSE_LANGUAGES: ReadonlySet<string> = new Set(["markdown", "text"]);

const NON_DEFINITION_KINDS = new Set(["module", "window", "section"]);
/** Declarations without behaviour: a struct holds data (Go, Rust and C keep its methods elsewhere). */
const DECLARATION_KINDS = new Set(["type", "interface", "enum", "struct"]);
/** A function body in a chunk: a parameter list's `)`, then only qualifiers (`const`, `noexcept`, `override`, `-> T`), then `{`. */
const FUNCTION_BODY_RE = /\)[\w\s&*:<>,-]*\{/;

/**
 * Whether a chunk declares without behaviour (DECLARATION_KINDS). A struct with a function body
 * inside is a class (C++ and C# structs hold methods; a small one is one chunk, methods and
 * all); its first line, the struct's own head, is not read.
 */
function isDeclaration(c: Pick<RerankCandidate, "kind" | "content">): boolean {
  if (!DECLARATION_KINDS.has(c.kind)) return false;
  return c.kind !== "struct" || !FUNCTION_BODY_RE.test(c.content.slice(c.content.indexOf("\n") + 1));
}

/** Tokens and their stems of a chunk's path + code (`body`) and of its symbol + container (`name`). */
interface TermSets {
  body: ReadonlySet<string>;
  name: ReadonlySet<string>;
}

/** Most chunks whose term sets are kept per isolate (a few MB; the profile's largest query cost). */
export const TERM_SET_CACHE_MAX = 20_000;

/**
 * Term sets by chunk id. A chunk id is content-addressed (contract.ts `fileId` + ordinal), so
 * the sets behind an id never change and need no invalidation; the oldest entry goes first.
 */
const termSetCache = new LRUCache<string, TermSets>({ max: TERM_SET_CACHE_MAX });

function withStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tokenize(text)) {
    out.add(t);
    out.add(stem(t));
  }
  return out;
}

function termSets(c: RerankCandidate): TermSets {
  const hit = termSetCache.get(c.chunkId);
  if (hit) return hit;
  const sets = { body: withStems(`${c.path} ${c.content}`), name: withStems(`${c.container ?? ""} ${c.symbol ?? ""}`) };
  termSetCache.set(c.chunkId, sets);
  return sets;
}

/** The query side of coverage, computed once per rerank instead of per candidate: each term's stem and IDF weight, and their sum. */
interface WeightedTerms {
  terms: string[];
  stems: string[];
  weights: number[];
  total: number;
}

function weighTerms(terms: string[], df: Map<string, number>, totalDocs: number): WeightedTerms {
  const stems: string[] = [];
  const weights: number[] = [];
  let total = 0;
  for (const t of terms) {
    const w = idf(df.get(t) ?? 0, Math.max(totalDocs, 1));
    total += w;
    weights.push(w);
    stems.push(stem(t));
  }
  return { terms, stems, weights, total };
}

function coverageOf(c: RerankCandidate, q: WeightedTerms): number {
  const { body, name } = termSets(c);
  let got = 0;
  for (let i = 0; i < q.terms.length; i++) {
    const t = q.terms[i];
    const s = q.stems[i];
    if (name.has(t) || name.has(s)) got += q.weights[i] * RERANK.symbolBoost;
    else if (body.has(t) || body.has(s)) got += q.weights[i];
  }
  const score = q.total ? got / q.total : 0;
  if (isDeclaration(c)) return score * RERANK.declarationFactor;
  return NON_DEFINITION_KINDS.has(c.kind) ? score * RERANK.nonDefinitionFactor : score;
}

/**
 * IDF-weighted coverage of `terms` by one candidate, in 0..max(1, symbolBoost), scaled down for chunks
 * without a definition and for declarations.
 * `df`: document frequency per term, `totalDocs`: chunks in the index.
 */
export function coverage(c: RerankCandidate, terms: string[], df: Map<string, number>, totalDocs: number): number {
  if (!terms.length) return 0;
  return coverageOf(c, weighTerms(terms, df, totalDocs));
}

/**
 * Reorders `candidates` (best first by channel fusion) by their fused RRF score plus an RRF
 * term for their coverage rank, times the declaration prior for types, interfaces and enums and,
 * for a bug report (`query.report`), the prose prior for docs and changelogs.
 * Returns a new array with the combined `score`.
 */
export function rerankByCoverage<T extends RerankCandidate>(
  candidates: T[],
  terms: string[],
  df: Map<string, number>,
  totalDocs: number,
  query: RerankQuery = {},
): T[] {
  // A single candidate still gets its term: scores of several repos are merged.
  if (RERANK.weight <= 0 || !candidates.length || !terms.length) return candidates;
  const weighted = weighTerms(terms, df, totalDocs);
  const cov = candidates.map((c) => coverageOf(c, weighted));
  const byCov = candidates.map((_, i) => i).sort((a, b) => cov[b] - cov[a] || a - b);
  const covRank = new Array<number>(candidates.length);
  byCov.forEach((idx, r) => (covRank[idx] = r + 1));
  // Added to the fused score (not to 1/(k + fused rank)) so scores stay comparable across repos.
  const prior = (c: T) =>
    (isDeclaration(c) ? RERANK.declarationPrior : 1) * (query.report && c.language && PROSE_LANGUAGES.has(c.language) ? RERANK.reportProsePrior : 1);
  const combined = candidates.map((c, i) => ({ c, i, s: prior(c) * (c.score + RERANK.weight / (RRF_K + covRank[i])) }));
  combined.sort((a, b) => b.s - a.s || a.i - b.i);
  return combined.map(({ c, s }) => ({ ...c, score: s }));
}
