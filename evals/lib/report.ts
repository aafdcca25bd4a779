/**
 * @module evals/lib/report
 *
 * Markdown tables for docs/evaluation.md, the README summary and the terminal. Percentages with one decimal, MRR and
 * nDCG with three, latencies in whole ms.
 */
import type { LocalizationSummary, RetrievalReport, RetrievalSummary } from "./metrics.ts";

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "n/a");
const dec = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "n/a");
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)}` : "n/a");

/** A markdown table from a header row and body rows. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

const RETRIEVAL_HEADER = ["n", "R@1", "R@5", "R@10", "MRR@10", "nDCG@10", "File R@5"];

function retrievalCells(s: RetrievalSummary): string[] {
  return [String(s.n), pct(s.recall1), pct(s.recall5), pct(s.recall10), dec(s.mrr10), dec(s.ndcg10), pct(s.fileRecall5)];
}

/** One labelled retrieval report: overall + per-category rows, gate line, latency. */
export function retrievalMarkdown(label: string, report: RetrievalReport): string {
  const rows = [[`**${label}**`, ...retrievalCells(report.overall), ms(report.latencyMs.p50), ms(report.latencyMs.p95)]];
  for (const [cat, s] of Object.entries(report.byCategory)) rows.push([`${label}: ${cat}`, ...retrievalCells(s!), "", ""]);
  return `${table(["Run", ...RETRIEVAL_HEADER, "p50 ms", "p95 ms"], rows)}\n\n${gateLine(report.gate)}`;
}

function gateLine(g: RetrievalReport["gate"]): string {
  return g.unanswerable
    ? `Confidence gate: refused ${g.refusedUnanswerable}/${g.unanswerable} unanswerable questions; wrongly refused ${g.refusedAnswerable}/${g.answerable} answerable ones.`
    : `Confidence gate: wrongly refused ${g.refusedAnswerable}/${g.answerable} answerable questions (the set has no unanswerable ones).`;
}

/** Ablation table: one row per variant. `unsupported` rows say why they have no numbers. */
export function ablationMarkdown(rows: { label: string; report?: RetrievalReport; error?: string }[]): string {
  return table(
    ["Variant", ...RETRIEVAL_HEADER, "Gate: unanswerable refused", "Gate: answerable refused", "p50 ms", "p95 ms"],
    rows.map((r) =>
      r.report
        ? [
            r.label,
            ...retrievalCells(r.report.overall),
            r.report.gate.unanswerable ? `${r.report.gate.refusedUnanswerable}/${r.report.gate.unanswerable}` : "n/a",
            `${r.report.gate.refusedAnswerable}/${r.report.gate.answerable}`,
            ms(r.report.latencyMs.p50),
            ms(r.report.latencyMs.p95),
          ]
        : [r.label, `not run: ${r.error ?? "unknown"}`, "", "", "", "", "", "", "", "", "", ""],
    ),
  );
}

/** Localization table: one row per method (product variants and the BM25 baseline), by repo optionally. */
export function localizationMarkdown(rows: { label: string; summary: LocalizationSummary; latency?: boolean }[]): string {
  return table(
    ["Method", "n", "Acc@1", "Acc@3", "Acc@5", "Acc@10", "p50 ms", "p95 ms"],
    rows.map(({ label, summary: s, latency }) => [
      label,
      String(s.n),
      pct(s.acc1),
      pct(s.acc3),
      pct(s.acc5),
      pct(s.acc10),
      latency === false ? "" : ms(s.latencyMs.p50),
      latency === false ? "" : ms(s.latencyMs.p95),
    ]),
  );
}

/** The provenance line under every generated table. */
export function provenance(p: { date: string; commit: string; config: string; command: string }): string {
  return `_Generated ${p.date} at commit \`${p.commit}\`; configuration: ${p.config}. Reproduce: \`${p.command}\`._`;
}

/** One repository's row of a multi-repository run. */
export interface RepoReportRow {
  /** e.g. `gin-gonic/gin (Go)`. */
  label: string;
  /** Files uploaded, when the run indexed the tree. */
  files?: number;
  report: RetrievalReport;
}

/**
 * Multi-repository table (polyglot): one row per repository, then the pooled questions of all
 * of them and the pooled questions by category. The `R@5 <category>` columns count questions
 * (`4/5`), since each repository has only a handful per category.
 */
export function multiRepoMarkdown(rows: RepoReportRow[], total: RetrievalReport): string {
  const cats = Object.keys(total.byCategory) as (keyof RetrievalReport["byCategory"])[];
  const r5 = (report: RetrievalReport, cat: (typeof cats)[number]) => {
    const s = report.byCategory[cat];
    return s ? `${Math.round(s.recall5 * s.n)}/${s.n}` : "n/a";
  };
  // Per-repository gate columns only when some question is unanswerable (the gate's calibration sets).
  const gated = total.gate.unanswerable > 0;
  const gate = (g: RetrievalReport["gate"]) =>
    gated ? [g.unanswerable ? `${g.refusedUnanswerable}/${g.unanswerable}` : "n/a", `${g.refusedAnswerable}/${g.answerable}`] : [];
  const body = rows.map((r) => [
    r.label,
    r.files === undefined ? "" : String(r.files),
    ...retrievalCells(r.report.overall),
    ...cats.map((c) => r5(r.report, c)),
    ...gate(r.report.gate),
    ms(r.report.latencyMs.p50),
    ms(r.report.latencyMs.p95),
  ]);
  body.push([
    "**All**",
    "",
    ...retrievalCells(total.overall),
    ...cats.map((c) => r5(total, c)),
    ...gate(total.gate),
    ms(total.latencyMs.p50),
    ms(total.latencyMs.p95),
  ]);
  for (const c of cats) body.push([`All: ${c}`, "", ...retrievalCells(total.byCategory[c]!), ...cats.map(() => ""), ...gate(total.gate).map(() => ""), "", ""]);
  const gateHeader = gated ? ["Gate: unanswerable refused", "Gate: answerable refused"] : [];
  return `${table(["Repository", "Files", ...RETRIEVAL_HEADER, ...cats.map((c) => `R@5 ${c}`), ...gateHeader, "p50 ms", "p95 ms"], body)}\n\n${gateLine(total.gate)}`;
}
