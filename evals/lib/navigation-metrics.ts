/**
 * @module evals/lib/navigation-metrics
 *
 * Scores for the navigation set (evals/sets/navigation.json): each answer is a set of
 * `path:line` strings compared with the gold set. Precision = |answer ∩ gold| / |answer|
 * (1 for an empty answer), recall = |answer ∩ gold| / |gold|; "micro" sums the counts over
 * cases, "exact" counts cases whose answer equals the gold set.
 */

/** One case of the navigation set. */
export interface NavigationCase {
  id: string;
  language: string;
  kind: "definition" | "references";
  /** The qualified name asked (find_symbol name; find_references definition). */
  query: string;
  /** `path:line`, 1-based. */
  gold: string[];
}

/** Counts for one case. */
export interface CaseScore {
  id: string;
  answered: number;
  gold: number;
  correct: number;
  exact: boolean;
}

/** Summed scores over cases. */
export interface SetScore {
  cases: number;
  precision: number;
  recall: number;
  exact: number;
}

/** The counts of `answer` against `gold` (both deduplicated). */
export function scoreCase(id: string, answer: string[], gold: string[]): CaseScore {
  const a = new Set(answer);
  const g = new Set(gold);
  const correct = [...a].filter((x) => g.has(x)).length;
  return { id, answered: a.size, gold: g.size, correct, exact: correct === a.size && correct === g.size };
}

/** Micro precision and recall over `scores`, and how many were exact. */
export function summarize(scores: CaseScore[]): SetScore {
  const answered = scores.reduce((s, c) => s + c.answered, 0);
  const gold = scores.reduce((s, c) => s + c.gold, 0);
  const correct = scores.reduce((s, c) => s + c.correct, 0);
  return { cases: scores.length, precision: answered ? correct / answered : 1, recall: gold ? correct / gold : 1, exact: scores.filter((c) => c.exact).length };
}

/** Parses the set file; throws naming the first malformed case. */
export function parseNavigationSet(raw: unknown): NavigationCase[] {
  const cases = (raw as { cases?: unknown }).cases;
  if (!Array.isArray(cases)) throw new Error("navigation set: no cases array");
  for (const c of cases as NavigationCase[]) {
    const ok = typeof c.id === "string" && ["definition", "references"].includes(c.kind) && typeof c.query === "string" && Array.isArray(c.gold);
    if (!ok || !c.gold.every((g) => /^.+:\d+$/.test(g))) throw new Error(`navigation set: malformed case ${JSON.stringify(c).slice(0, 120)}`);
  }
  return cases as NavigationCase[];
}
