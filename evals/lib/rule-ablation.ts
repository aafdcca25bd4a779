/**
 * @module evals/lib/rule-ablation
 *
 * Measures each report rule by turning it off alone (issue #46, "every rule earns its place"):
 * `--disable-rule ID[,ID]` runs the set with those rules off; `--disable-rule all` runs the
 * server defaults and then each rule of kernel/search-rules.ts off in turn, as variants of one
 * run, so every set is indexed once. `ruleMoves` compares each rule-off variant with the
 * defaults, instance by instance: a rule moves an instance up when, with it on, the gold is
 * within the top 5 (or 10) and without it is not; down, the other way round.
 */
import { RULES } from "../../kernel/search-rules.ts";
import type { SearchVariant } from "./types.ts";

/** Label of the server defaults in a rule ablation. */
export const DEFAULTS_LABEL = "hybrid (server defaults)";
/** Label prefix of a rule-off variant. */
export const RULE_OFF_PREFIX = "without rule ";

/**
 * The variants `--disable-rule` asks for: `all` is the defaults plus one variant per rule; a
 * comma-separated list of ids is the defaults plus one variant with all of them off. Throws an
 * Error naming the unknown id and listing the known ones.
 */
export function ruleVariants(spec: string): SearchVariant[] {
  const known = RULES.map((r) => r.id as string);
  const base: SearchVariant = { label: DEFAULTS_LABEL };
  if (spec === "all") return [base, ...known.map((id) => ({ label: `${RULE_OFF_PREFIX}${id}`, disableRules: [id] }))];
  const ids = spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length || !ids.length) throw new Error(`--disable-rule: unknown rule ${unknown.join(", ") || "(none)"}; use all or some of: ${known.join(", ")}`);
  return [base, { label: `${RULE_OFF_PREFIX}${ids.join("+")}`, disableRules: ids }];
}

/** One instance's rank under a variant: the first hit's rank (retrieval sets) or all gold files' (SWE-bench), null when beyond the depth. */
export interface RankedInstance {
  id: string;
  rank: number | null;
}

/** What one rule moves on one set: instances whose gold enters (up) or leaves (down) the top 5 / top 10 because of the rule. */
export interface RuleMoves {
  rule: string;
  up5: string[];
  down5: string[];
  up10: string[];
  down10: string[];
  /** Instances whose rank changed at all (also within a bucket). */
  changed: number;
}

const within = (rank: number | null, k: number) => rank !== null && rank <= k;

/**
 * Compares each rule-off variant with the defaults. `byLabel`: each variant's instances (labels
 * as `ruleVariants` makes them). Instances missing from a variant are skipped.
 */
export function ruleMoves(byLabel: Record<string, RankedInstance[]>): RuleMoves[] {
  const base = new Map((byLabel[DEFAULTS_LABEL] ?? []).map((o) => [o.id, o.rank]));
  const out: RuleMoves[] = [];
  for (const [label, outcomes] of Object.entries(byLabel)) {
    if (!label.startsWith(RULE_OFF_PREFIX)) continue;
    const m: RuleMoves = { rule: label.slice(RULE_OFF_PREFIX.length), up5: [], down5: [], up10: [], down10: [], changed: 0 };
    for (const o of outcomes) {
      if (!base.has(o.id)) continue;
      const on = base.get(o.id)!;
      if (on !== o.rank) m.changed++;
      for (const [k, up, down] of [
        [5, m.up5, m.down5],
        [10, m.up10, m.down10],
      ] as const) {
        if (within(on, k) && !within(o.rank, k)) up.push(o.id);
        if (!within(on, k) && within(o.rank, k)) down.push(o.id);
      }
    }
    out.push(m);
  }
  return out;
}

/** A Markdown table of `ruleMoves` for one set: rule, up/down at 5 and 10 (with the ids), rank changes. */
export function ruleMovesMarkdown(set: string, moves: RuleMoves[]): string {
  const ids = (xs: string[]) => (xs.length ? `${xs.length} (${xs.join(", ")})` : "0");
  const rows = moves.map((m) => `| ${m.rule} | ${set} | ${ids(m.up5)} | ${ids(m.down5)} | ${ids(m.up10)} | ${ids(m.down10)} | ${m.changed} |`);
  return [
    "| Rule | Set | Moves up (top 5) | Moves down (top 5) | Moves up (top 10) | Moves down (top 10) | Ranks changed |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** The parts of a saved run `rankedByLabel` reads: retrieval runs (`runs`) or SWE-bench outcomes. */
export interface SavedRun {
  runs?: { set?: string; rule?: string; variant: { label: string }; details: { id: string; rank: number | null; category?: string }[] }[];
  outcomes?: Record<string, { id: string; allFoundAt: number | null }[]>;
}

/**
 * Each variant's ranked instances from a run's output: SWE-bench instances by the rank at which
 * all gold files are in (`allFoundAt`), retrieval questions (unanswerable ones left out) by their
 * first hit's rank, named `<set or inclusion rule>/<question id>`.
 */
export function rankedByLabel(run: SavedRun): Record<string, RankedInstance[]> {
  if (run.outcomes) return Object.fromEntries(Object.entries(run.outcomes).map(([l, os]) => [l, os.map((o) => ({ id: o.id, rank: o.allFoundAt }))]));
  const out: Record<string, RankedInstance[]> = {};
  for (const r of run.runs ?? []) {
    const scope = r.set ?? r.rule ?? "";
    for (const d of r.details) {
      if (d.category === "unanswerable") continue;
      (out[r.variant.label] ??= []).push({ id: scope ? `${scope}/${d.id}` : d.id, rank: d.rank });
    }
  }
  return out;
}

/** One set's saved rule run, as `--disable-rule all` writes it (`set`, `ruleMoves`, provenance). */
export interface SavedRuleRun {
  set: string;
  commit?: string;
  command?: string;
  ruleMoves?: RuleMoves[];
}

/**
 * One table over several sets' saved rule runs: per rule, the instances it moves up and down
 * (`set:id`, top 5 and top 10) and the sets on which it changes any rank (with how many; runs
 * of one set over disjoint parts, such as SWE-bench per repository, add up). Rules in the order
 * of the first run.
 */
export function combinedRuleMarkdown(runs: SavedRuleRun[]): string {
  const order = [...new Set(runs.flatMap((r) => (r.ruleMoves ?? []).map((m) => m.rule)))];
  const cell = (xs: string[]) => (xs.length ? `${xs.length}: ${xs.join(", ")}` : "0");
  const rows = order.map((rule) => {
    const per = runs.map((r) => ({ set: r.set, m: r.ruleMoves?.find((x) => x.rule === rule) })).filter((p) => p.m);
    const ids = (k: "up5" | "down5" | "up10" | "down10") => per.flatMap((p) => p.m![k].map((id) => `${p.set}:${id}`));
    // Runs of one set over disjoint parts (SWE-bench per repository) add up.
    const bySet = new Map<string, number>();
    for (const p of per) bySet.set(p.set, (bySet.get(p.set) ?? 0) + p.m!.changed);
    const changed = [...bySet].filter(([, n]) => n > 0).map(([set, n]) => `${set} (${n})`);
    return `| ${rule} | ${cell(ids("up5"))} | ${cell(ids("down5"))} | ${cell(ids("up10"))} | ${cell(ids("down10"))} | ${changed.join(", ") || "none"} |`;
  });
  const sets = runs.map((r) => `${r.set}: \`${r.command ?? "?"}\` at \`${r.commit ?? "?"}\``);
  return [
    "| Rule | Moves up (top 5) | Moves down (top 5) | Moves up (top 10) | Moves down (top 10) | Sets where it changes a rank (instances) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `Runs: ${sets.join("; ")}.`,
  ].join("\n");
}
