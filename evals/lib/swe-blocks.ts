/**
 * @module evals/lib/swe-blocks
 *
 * The SWE-bench block of the evaluation runner (evals/run.ts): the markdown of a run
 * (`sweMarkdown`) and one block from several saved runs over disjoint instances (`mergeSwe`).
 */
import { readFileSync } from "node:fs";
import { summarizeLocalization } from "./metrics.ts";
import { localizationMarkdown, provenance } from "./report.ts";
import type { RunOutput } from "./run-context.ts";
import { BASELINE_LABEL, type SwebenchRun } from "./swebench.ts";

/**
 * The SWE-bench block of a run: one row per variant label and the baseline, per repository, the
 * median indexing time and the provenance line. `repos` holds each instance's repository.
 */
export function sweMarkdown(run: SwebenchRun, labels: string[], repos: string[], meta: Parameters<typeof provenance>[0]): string {
  const rows = [
    ...labels.filter((l) => !run.unsupported[l]).map((l) => ({ label: `Codebase Copilot: ${l}`, summary: summarizeLocalization(run.outcomes[l]) })),
    { label: BASELINE_LABEL, summary: summarizeLocalization(run.outcomes[BASELINE_LABEL]), latency: false },
  ];
  const main = labels[0];
  const perRepo = [...new Set(repos)].flatMap((repo) => [
    { label: `${repo}: product`, summary: summarizeLocalization(run.outcomes[main]?.filter((o) => o.repo === repo) ?? []) },
    { label: `${repo}: baseline`, summary: summarizeLocalization(run.outcomes[BASELINE_LABEL].filter((o) => o.repo === repo)), latency: false },
  ]);
  const unsupported = Object.entries(run.unsupported)
    .map(([l, e]) => `- ${l}: not run (${e})`)
    .join("\n");
  const indexMs = run.indexRuns.map((r) => r.wallMs).sort((a, b) => a - b);
  return [
    `**SWE-bench Lite file localization**: ${repos.length} instances, ${new Set(repos).size} repositories; query = whole problem statement; Acc@k = all gold files within the top k distinct files.`,
    localizationMarkdown(rows),
    unsupported,
    `<details><summary>By repository</summary>\n\n${localizationMarkdown(perRepo)}\n\n</details>`,
    `Indexing: first upload per repository is a cold index, later commits re-index incrementally; median ${Math.round(indexMs[Math.floor(indexMs.length / 2)] ?? 0)} ms per instance.`,
    provenance(meta),
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * `--merge a.json,b.json`: one SWE-bench block from saved runs of the same commit over disjoint
 * instances (runs on several servers at once). Calls `fail` (which does not return) naming the
 * file that is not a saved swebench run, or when the commits, variants or instances disagree.
 * `command` is the merging command line.
 */
export function mergeSwe(files: string[], command: string, fail: (message: string) => never): { output: RunOutput; markdown: string } {
  type Saved = RunOutput & SwebenchRun & { set?: string; commit: string; config: string; command: string; instances: string[] };
  const saved = files.map((f) => {
    const s = JSON.parse(readFileSync(f, "utf8")) as Saved;
    if (s.set !== "swebench" || !s.outcomes || !Array.isArray(s.instances)) fail(`${f} is not a saved swebench run (pass --out files of --set swebench)`);
    return s;
  });
  const labels = Object.keys(saved[0].outcomes).filter((l) => l !== BASELINE_LABEL);
  for (const [i, s] of saved.entries()) {
    if (s.commit !== saved[0].commit) fail(`${files[i]} ran commit ${s.commit}, ${files[0]} ran ${saved[0].commit}: merge runs of one commit`);
    if (Object.keys(s.outcomes).join() !== Object.keys(saved[0].outcomes).join()) fail(`${files[i]} ran other variants than ${files[0]}`);
  }
  const ids = saved.flatMap((s) => s.instances);
  if (new Set(ids).size !== ids.length) fail("the runs share instances; merge runs over disjoint instances");
  const run: SwebenchRun = {
    outcomes: Object.fromEntries(Object.keys(saved[0].outcomes).map((l) => [l, saved.flatMap((s) => s.outcomes[l])])),
    details: Object.fromEntries(Object.keys(saved[0].details).map((l) => [l, saved.flatMap((s) => s.details[l])])),
    unsupported: Object.assign({}, ...saved.map((s) => s.unsupported)),
    indexRuns: saved.flatMap((s) => s.indexRuns),
    baselineFiles: saved.every((s) => s.baselineFiles === "product-listing") ? "product-listing" : "upload-filtered",
  };
  const repos = run.outcomes[BASELINE_LABEL].map((o) => o.repo);
  const meta = {
    set: "swebench",
    date: new Date().toISOString().slice(0, 10),
    commit: saved[0].commit,
    command: `${saved.map((s) => s.command).join("`, `")}\`, merged by \`${command}`,
  };
  const config = saved.map((s) => s.config).join("; ");
  return { output: { ...meta, config, instances: ids, ...run }, markdown: sweMarkdown(run, labels, repos, { ...meta, config }) };
}
