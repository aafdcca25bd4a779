/**
 * @module evals/lib/metrics
 *
 * Retrieval metrics, pure functions over results and gold. Definitions follow the hono-50
 * publisher (../shared/bench/README.md) and SWE-bench localization papers (SweRank,
 * arXiv 2505.07849):
 *
 * - hit: a result whose path equals a gold file and whose line range overlaps the gold range
 *   (`start <= gold.endLine && end >= gold.startLine`);
 * - Recall@k: share of questions whose first hit is within the top k;
 * - MRR@10: mean of 1/rank of the first hit (0 when none in the top 10);
 * - nDCG@10: binary gains, each gold span counted once (by its first hit), ideal DCG over
 *   min(#gold, 10) spans (Järvelin & Kekäläinen 2002);
 * - file recall@5: a gold file among the top 5 results' paths;
 * - Acc@k (file localization): all gold files within the top k distinct files, files ranked by
 *   their best chunk (first appearance in the result list).
 */
import type { Category, GoldSpan, SearchHit } from "./types.ts";

/** Whether a result overlaps a gold span (same file, overlapping lines). */
export function isHit(hit: SearchHit, gold: GoldSpan): boolean {
  return hit.path === gold.file && hit.startLine <= gold.endLine && hit.endLine >= gold.startLine;
}

/** 1-based rank of the first result that hits any gold span, or null. */
export function firstHitRank(results: SearchHit[], gold: GoldSpan[]): number | null {
  const i = results.findIndex((r) => gold.some((g) => isHit(r, g)));
  return i < 0 ? null : i + 1;
}

/** nDCG@k with binary gains; each gold span earns a gain once, at its first hit. */
export function ndcgAt(results: SearchHit[], gold: GoldSpan[], k = 10): number {
  if (gold.length === 0) return 0;
  const matched = new Set<number>();
  let dcg = 0;
  results.slice(0, k).forEach((r, i) => {
    const g = gold.findIndex((span, j) => !matched.has(j) && isHit(r, span));
    if (g >= 0) {
      matched.add(g);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(gold.length, k); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Distinct paths in order of first appearance (a file ranks by its best chunk). */
export function rankedFiles(results: SearchHit[]): string[] {
  return [...new Set(results.map((r) => r.path))];
}

/** Whether every gold file is within the top k distinct files. */
export function allGoldFilesWithin(files: string[], goldFiles: string[], k: number): boolean {
  const top = new Set(files.slice(0, k));
  return goldFiles.length > 0 && goldFiles.every((f) => top.has(f));
}

/** Percentile by nearest rank (p in 0..100) of unsorted numbers; NaN for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/** What the harness records per retrieval question. */
export interface QuestionOutcome {
  id: string;
  category: Category;
  /** Rank of the first hit in the top 10, null when none (always null for unanswerable). */
  rank: number | null;
  ndcg10: number;
  /** A gold file among the top 5 results' paths. */
  fileHit5: boolean;
  /** The confidence gate said `low`. */
  refused: boolean;
  latencyMs: number;
}

/** Scores one question's results. */
export function scoreQuestion(
  q: { id: string; category: Category; gold: GoldSpan[] },
  results: SearchHit[],
  refused: boolean,
  latencyMs: number,
): QuestionOutcome {
  const top = results.slice(0, 10);
  const rank = firstHitRank(top, q.gold);
  const goldFiles = new Set(q.gold.map((g) => g.file));
  return {
    id: q.id,
    category: q.category,
    rank,
    ndcg10: ndcgAt(top, q.gold, 10),
    fileHit5: top.slice(0, 5).some((r) => goldFiles.has(r.path)),
    refused,
    latencyMs,
  };
}

/** Aggregate retrieval metrics over answerable questions (fractions in 0..1). */
export interface RetrievalSummary {
  n: number;
  recall1: number;
  recall5: number;
  recall10: number;
  mrr10: number;
  ndcg10: number;
  fileRecall5: number;
}

/** Summarises outcomes of answerable questions. */
export function summarizeRetrieval(outcomes: QuestionOutcome[]): RetrievalSummary {
  const n = outcomes.length;
  const share = (f: (o: QuestionOutcome) => boolean) => (n ? outcomes.filter(f).length / n : 0);
  const mean = (f: (o: QuestionOutcome) => number) => (n ? outcomes.reduce((s, o) => s + f(o), 0) / n : 0);
  return {
    n,
    recall1: share((o) => o.rank !== null && o.rank <= 1),
    recall5: share((o) => o.rank !== null && o.rank <= 5),
    recall10: share((o) => o.rank !== null && o.rank <= 10),
    mrr10: mean((o) => (o.rank !== null && o.rank <= 10 ? 1 / o.rank : 0)),
    ndcg10: mean((o) => o.ndcg10),
    fileRecall5: share((o) => o.fileHit5),
  };
}

/** Confidence-gate outcome: refusals among unanswerable and among answerable questions. */
export interface GateSummary {
  unanswerable: number;
  /** Unanswerable questions the gate refused (correct refusals). */
  refusedUnanswerable: number;
  answerable: number;
  /** Answerable questions the gate refused (wrong refusals). */
  refusedAnswerable: number;
}

/** Counts the gate's refusals. */
export function summarizeGate(outcomes: QuestionOutcome[]): GateSummary {
  const un = outcomes.filter((o) => o.category === "unanswerable");
  const an = outcomes.filter((o) => o.category !== "unanswerable");
  return {
    unanswerable: un.length,
    refusedUnanswerable: un.filter((o) => o.refused).length,
    answerable: an.length,
    refusedAnswerable: an.filter((o) => o.refused).length,
  };
}

/** Full report of a retrieval set under one search variant. */
export interface RetrievalReport {
  overall: RetrievalSummary;
  byCategory: Partial<Record<Category, RetrievalSummary>>;
  gate: GateSummary;
  latencyMs: { p50: number; p95: number };
}

/** Builds the report: overall and per-category metrics over answerable questions, gate counts, latency. */
export function buildRetrievalReport(outcomes: QuestionOutcome[]): RetrievalReport {
  const answerable = outcomes.filter((o) => o.category !== "unanswerable");
  const byCategory: Partial<Record<Category, RetrievalSummary>> = {};
  for (const cat of [...new Set(answerable.map((o) => o.category))].sort()) {
    byCategory[cat] = summarizeRetrieval(answerable.filter((o) => o.category === cat));
  }
  const lat = outcomes.map((o) => o.latencyMs);
  return {
    overall: summarizeRetrieval(answerable),
    byCategory,
    gate: summarizeGate(outcomes),
    latencyMs: { p50: percentile(lat, 50), p95: percentile(lat, 95) },
  };
}

/** File-localization outcome of one bug report. */
export interface LocalizationOutcome {
  id: string;
  repo: string;
  /** Smallest k at which all gold files are within the top k distinct files, or null (> depth). */
  allFoundAt: number | null;
  latencyMs: number;
}

/** Scores one bug report: ranked distinct files against gold files. */
export function scoreLocalization(id: string, repo: string, files: string[], goldFiles: string[], latencyMs: number): LocalizationOutcome {
  let allFoundAt: number | null = null;
  if (goldFiles.length > 0) {
    const positions = goldFiles.map((f) => files.indexOf(f));
    if (positions.every((p) => p >= 0)) allFoundAt = Math.max(...positions) + 1;
  }
  return { id, repo, allFoundAt, latencyMs };
}

/** Acc@1/3/5/10 (fractions) over localization outcomes, plus latency. */
export interface LocalizationSummary {
  n: number;
  acc1: number;
  acc3: number;
  acc5: number;
  acc10: number;
  latencyMs: { p50: number; p95: number };
}

/** Summarises localization outcomes. */
export function summarizeLocalization(outcomes: LocalizationOutcome[]): LocalizationSummary {
  const n = outcomes.length;
  const acc = (k: number) => (n ? outcomes.filter((o) => o.allFoundAt !== null && o.allFoundAt <= k).length / n : 0);
  const lat = outcomes.map((o) => o.latencyMs);
  return { n, acc1: acc(1), acc3: acc(3), acc5: acc(5), acc10: acc(10), latencyMs: { p50: percentile(lat, 50), p95: percentile(lat, 95) } };
}
