/**
 * @module evals/lib/multifile
 *
 * The multi-file set (issue #47, evals/sets/multifile.json): bug fixes from repositories' history
 * whose change modifies 2 to 5 source files (selection: evals/lib/multifile-select.ts). It is
 * scored like SWE-bench (evals/lib/swebench.ts: each instance's parent tree indexed in turn, the
 * commit message as the query) with two figures: **Acc@k** (all gold files within the top k
 * distinct files) and **per-file recall@k** (the share of all gold files, pooled over instances,
 * within the top k distinct files of their instance).
 */
import { summarizeLocalization, type LocalizationOutcome } from "./metrics.ts";
import type { MultifileInstance } from "./multifile-select.ts";
import { table } from "./report.ts";
import type { SwebenchInstance } from "./types.ts";

/** Parses the set file (`{built, instances: [...]}`); throws naming the instance and field that is malformed. */
export function parseMultifileSet(raw: unknown): MultifileInstance[] {
  const obj = raw as { instances?: unknown };
  if (!obj || !Array.isArray(obj.instances)) throw new TypeError('multifile set: expected an object with an "instances" array');
  return obj.instances.map((d: Record<string, unknown>, i: number) => {
    const id = typeof d.instance_id === "string" ? d.instance_id : `#${i + 1}`;
    for (const key of ["instance_id", "repo", "commit", "base_commit", "problem_statement"]) {
      if (typeof d[key] !== "string" || !d[key]) throw new TypeError(`multifile ${id}: "${key}" must be a non-empty string`);
    }
    const gold = d.gold_files;
    if (!Array.isArray(gold) || gold.length < 2 || gold.some((g) => typeof g !== "string"))
      throw new TypeError(`multifile ${id}: "gold_files" must list at least 2 paths`);
    return d as unknown as MultifileInstance;
  });
}

/** The instances as the SWE-bench runner takes them (the same fields it reads). */
export function asSwebench(instances: MultifileInstance[]): SwebenchInstance[] {
  return instances.map((d) => ({
    instance_id: d.instance_id,
    repo: d.repo,
    base_commit: d.base_commit,
    problem_statement: d.problem_statement,
    gold_files: d.gold_files,
  }));
}

/** One instance's 1-based rank of each gold file among the distinct files (null: not returned). */
export interface GoldRanks {
  id: string;
  goldRanks: (number | null)[];
}

/** Share of all gold files (pooled over instances) ranked within the top `k` distinct files. */
export function perFileRecall(details: GoldRanks[], k: number): number {
  const ranks = details.flatMap((d) => d.goldRanks);
  return ranks.length ? ranks.filter((r) => r !== null && r <= k).length / ranks.length : 0;
}

/** One row of the multi-file table: a method's outcomes and gold ranks over the same instances. */
export interface MultifileRow {
  label: string;
  outcomes: LocalizationOutcome[];
  details: GoldRanks[];
  /** False for the baseline, whose latency is not a round trip. */
  latency?: boolean;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Markdown table: Acc@1/3/5/10, per-file recall@5/@10, gold files, latency. */
export function multifileMarkdown(rows: MultifileRow[]): string {
  return table(
    ["Method", "n", "gold files", "Acc@1", "Acc@3", "Acc@5", "Acc@10", "File recall@5", "File recall@10", "p50 ms", "p95 ms"],
    rows.map(({ label, outcomes, details, latency }) => {
      const s = summarizeLocalization(outcomes);
      return [
        label,
        String(s.n),
        String(details.reduce((n, d) => n + d.goldRanks.length, 0)),
        pct(s.acc1),
        pct(s.acc3),
        pct(s.acc5),
        pct(s.acc10),
        pct(perFileRecall(details, 5)),
        pct(perFileRecall(details, 10)),
        latency === false ? "" : `${Math.round(s.latencyMs.p50)}`,
        latency === false ? "" : `${Math.round(s.latencyMs.p95)}`,
      ];
    }),
  );
}
