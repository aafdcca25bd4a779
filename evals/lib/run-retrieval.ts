/**
 * @module evals/lib/run-retrieval
 *
 * The retrieval sets of the evaluation runner (evals/run.ts): `fixture` and `hono-50`
 * (`runRetrieval`), and the per-repository sets `polyglot`, `reports` and `unanswerable`
 * (`runSetDir`). Each indexes its corpus through the product, runs every variant and returns
 * the JSON output and the markdown block.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ApiError } from "./client.ts";
import { readCorpus } from "./corpus-fs.ts";
import { indexCorpus, runRetrievalSet, type QuestionDetail } from "./evaluate.ts";
import type { InclusionRule } from "./inclusion.ts";
import { buildRetrievalReport, type RetrievalReport } from "./metrics.ts";
import { ablationMarkdown, multiRepoMarkdown, provenance, retrievalMarkdown, type RepoReportRow } from "./report.ts";
import type { RunContext, RunOutput } from "./run-context.ts";
import { parseRetrievalSet, planSetRuns } from "./sets.ts";
import { readSetDir } from "./sets-fs.ts";

/**
 * `--set fixture | hono-50`: one retrieval set, per inclusion rule (`include`: publisher | whole |
 * both), indexing `corpus` first when given. `benchDir` holds hono-50.json.
 */
export async function runRetrieval(
  ctx: RunContext,
  opts: { benchDir: string; include: string | undefined; corpus: string | undefined; repo: string | undefined },
): Promise<{ output: RunOutput; markdown: string }> {
  const { client, log, setName, root: ROOT } = ctx;
  const args = { include: opts.include, corpus: opts.corpus, repo: opts.repo };
  const benchDir = opts.benchDir;
  const setPath = setName === "fixture" ? join(ROOT, "evals", "sets", "fixture.json") : join(benchDir, "hono-50.json");
  const set = parseRetrievalSet(setName, JSON.parse(readFileSync(setPath, "utf8")));
  const rules: InclusionRule[] = setName === "fixture" ? ["whole"] : args.include === "both" ? ["publisher", "whole"] : [args.include as InclusionRule];
  const corpus = args.corpus ?? (setName === "fixture" ? join(ROOT, "evals", "fixture-repo") : undefined);
  const runs: Record<string, unknown>[] = [];
  const sections: string[] = [];
  let configLine = "";
  for (const rule of rules) {
    const repo = args.repo && rules.length === 1 ? args.repo : setName === "fixture" ? "eval-fixture" : `eval-hono-${rule}`;
    let indexRun: unknown = null;
    if (corpus) {
      const files = readCorpus(corpus, rule);
      log(`indexing ${files.length} files of ${corpus} (${rule}) into ${repo} ...`);
      const r = await indexCorpus(client, repo, files, {
        onStatus: (s, t) => log(`  ${Math.round(t / 1000)}s ${s.status} ${JSON.stringify(s.progress ?? "")}`),
      });
      log(`indexed in ${r.wallMs} ms`);
      indexRun = { files: r.files, archiveBytes: r.archiveBytes, wallMs: r.wallMs };
    }
    configLine ||= await ctx.serverConfig(repo);
    const ablation: { label: string; report?: RetrievalReport; error?: string }[] = [];
    for (const variant of ctx.variants) {
      try {
        const { report, details } = await runRetrievalSet(client, set, repo, { k: Number(ctx.k ?? 10), variant });
        ablation.push({ label: variant.label, report });
        runs.push({ rule, repo, variant, index: indexRun, report, details });
        log(
          `${rule} / ${variant.label}: R@1 ${report.overall.recall1.toFixed(3)} R@5 ${report.overall.recall5.toFixed(3)} MRR ${report.overall.mrr10.toFixed(3)}`,
        );
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 400)) throw err;
        ablation.push({ label: variant.label, error: err.message });
        log(`${variant.label}: not supported by the server: ${err.message}`);
      }
    }
    const title =
      setName === "fixture"
        ? "Fixture set (evals/sets/fixture.json)"
        : `hono-50, ${rule === "publisher" ? "publisher's inclusion rule (src/ without tests)" : "whole repository"}`;
    const body = ctx.ablation
      ? ablationMarkdown(ablation)
      : ablation.map((a) => (a.report ? retrievalMarkdown(a.label, a.report) : `Not run: ${a.error}`)).join("\n\n");
    sections.push(`**${title}**${corpus ? `, ${(indexRun as { files: number }).files} files uploaded` : ""}\n\n${body}`);
  }
  const meta = ctx.meta();
  const markdown = `${sections.join("\n\n")}\n\n${provenance({ ...meta, config: configLine })}`;
  return { output: { ...meta, config: configLine, runs }, markdown };
}

/**
 * polyglot, reports, unanswerable: one retrieval set per repository (evals/sets/<set>/*.json),
 * each tree indexed as its own repo `eval-poly-<name>` from `--corpus-root`, scored per
 * repository and pooled. `reports` are bug reports written in each repo's issue-template style,
 * `unanswerable` questions that reuse a repo's vocabulary but have no answer in it (the gate).
 */
export async function runSetDir(ctx: RunContext, dir: "polyglot" | "reports" | "unanswerable"): Promise<{ output: RunOutput; markdown: string }> {
  const { client, log, root: ROOT } = ctx;
  const plan = planSetRuns(readSetDir(join(ROOT, "evals", "sets", dir)), resolve(ctx.corpusRoot), ctx.repos ? ctx.repos.split(",") : []);
  const vs = ctx.variants;
  const rowsByVariant = new Map<string, RepoReportRow[]>(vs.map((v) => [v.label, []]));
  const detailsByVariant = new Map<string, QuestionDetail[]>(vs.map((v) => [v.label, []]));
  const unsupported = new Map<string, string>();
  const runs: Record<string, unknown>[] = [];
  for (const { set, repoId, corpus } of plan) {
    if (!existsSync(corpus))
      throw new Error(
        `${set.name}: no tree at ${corpus}; export it first: node evals/export-corpora.ts --set ${dir === "polyglot" ? "polyglot" : "polyglot (or hono-50, swebench)"} --out ${ctx.corpusRoot} --git-dir ${set.repo}=<its .git>`,
      );
    const files = readCorpus(corpus, "whole");
    log(`indexing ${files.length} files of ${corpus} into ${repoId} ...`);
    const r = await indexCorpus(client, repoId, files, {
      onStatus: (s, t) => log(`  ${Math.round(t / 1000)}s ${s.status} ${JSON.stringify(s.progress ?? "")}`),
    });
    log(`indexed in ${r.wallMs} ms`);
    const index = { files: r.files, archiveBytes: r.archiveBytes, wallMs: r.wallMs };
    for (const variant of vs) {
      if (unsupported.has(variant.label)) continue;
      try {
        const { report, details } = await runRetrievalSet(client, set, repoId, { k: Number(ctx.k ?? 10), variant });
        rowsByVariant.get(variant.label)!.push({ label: `${set.repo}${set.language ? ` (${set.language})` : ""}`, files: r.files, report });
        detailsByVariant.get(variant.label)!.push(...details);
        runs.push({ set: set.name, repo: set.repo, commit: set.commit, repoId, variant, index, report, details });
        log(
          `${set.name} / ${variant.label}: R@1 ${report.overall.recall1.toFixed(3)} R@5 ${report.overall.recall5.toFixed(3)} MRR ${report.overall.mrr10.toFixed(3)}`,
        );
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 400)) throw err;
        unsupported.set(variant.label, err.message);
        log(`${variant.label}: not supported by the server: ${err.message}`);
      }
    }
  }
  const totals = vs.map((v) => ({
    label: v.label,
    report: unsupported.has(v.label) ? undefined : buildRetrievalReport(detailsByVariant.get(v.label)!),
    error: unsupported.get(v.label),
  }));
  const questions = plan.reduce((n, p) => n + p.set.questions.length, 0);
  const title = `**${dir} (evals/sets/${dir}/)**: ${plan.length} repositories, ${questions} questions, each tree uploaded whole as its own repo`;
  const body = ctx.ablation
    ? ablationMarkdown(totals)
    : totals
        .map((t) =>
          t.report
            ? `Search: ${t.label}, k ${ctx.k ?? 10}.\n\n${multiRepoMarkdown(rowsByVariant.get(t.label)!, t.report)}`
            : `${t.label}: not run (${t.error})`,
        )
        .join("\n\n");
  const meta = ctx.meta();
  const config = await ctx.serverConfig(plan[0]?.repoId ?? "");
  const markdown = `${title}\n\n${body}\n\n${provenance({ ...meta, config })}`;
  return { output: { ...meta, config, totals, runs }, markdown };
}
