/**
 * @module evals/lib/multifile-eval
 *
 * `npm run eval -- --set multifile`: runs the multi-file set (evals/lib/multifile.ts) through the
 * SWE-bench runner (evals/lib/swebench.ts) and renders its block: the product and the whole-file
 * BM25 baseline overall, then per repository. Node only (reads the set and the exported trees).
 */
import { readFileSync } from "node:fs";
import type { ApiClient } from "./client.ts";
import { multifileMarkdown, asSwebench, parseMultifileSet, type MultifileRow } from "./multifile.ts";
import { provenance } from "./report.ts";
import { BASELINE_LABEL, runSwebench, type SwebenchRun } from "./swebench.ts";
import type { SearchVariant } from "./types.ts";

/** Options of `runMultifileEval`. */
export interface MultifileEvalOptions {
  /** Path of evals/sets/multifile.json. */
  setPath: string;
  /** Folder of exported trees `<name>-<short parent commit>` (evals/export-corpora.ts --set multifile). */
  corpusRoot: string;
  variants: SearchVariant[];
  /** Results per search (k 50 leaves room for 10 distinct files under the per-file cap). */
  k: number;
  explain?: boolean;
  /** Only these repositories (`owner/name`), when given. */
  repos?: string[];
  log?: (line: string) => void;
}

/** Runs the set; returns the SWE-bench runner's record (outcomes and gold ranks per label) and the instance ids. */
export async function runMultifileEval(client: ApiClient, o: MultifileEvalOptions): Promise<{ run: SwebenchRun; instances: string[]; repos: string[] }> {
  const all = parseMultifileSet(JSON.parse(readFileSync(o.setPath, "utf8")));
  const picked = o.repos?.length ? all.filter((d) => o.repos!.includes(d.repo)) : all;
  if (!picked.length) throw new Error(`no multifile instance of ${o.repos?.join(", ")}; repositories: ${[...new Set(all.map((d) => d.repo))].join(", ")}`);
  o.log?.(`${picked.length} instances across ${new Set(picked.map((d) => d.repo)).size} repositories`);
  const run = await runSwebench(client, asSwebench(picked), {
    corpusRoot: o.corpusRoot,
    variants: o.variants,
    k: o.k,
    explain: o.explain,
    log: o.log,
    exportHint: "multifile",
  });
  return { run, instances: picked.map((d) => d.instance_id), repos: picked.map((d) => d.repo) };
}

/** The block of a run: overall rows, a per-repository table (product and baseline) and the provenance line. */
export function multifileBlock(run: SwebenchRun, labels: string[], repos: string[], meta: Parameters<typeof provenance>[0]): string {
  const row = (label: string, name: string, keep: (i: number) => boolean = () => true): MultifileRow => ({
    label: name,
    outcomes: run.outcomes[label].filter((_, i) => keep(i)),
    details: run.details[label].filter((_, i) => keep(i)),
    latency: label !== BASELINE_LABEL,
  });
  const ran = labels.filter((l) => !run.unsupported[l]);
  const main = ran[0];
  const perRepo = main
    ? [...new Set(repos)].flatMap((repo) => [
        row(main, `${repo}: product`, (i) => repos[i] === repo),
        row(BASELINE_LABEL, `${repo}: baseline`, (i) => repos[i] === repo),
      ])
    : [];
  const goldFiles = repos.length ? run.details[BASELINE_LABEL].reduce((n, d) => n + d.gold.length, 0) : 0;
  return [
    `**Multi-file fixes (evals/sets/multifile.json)**: ${repos.length} bug-fix commits, ${new Set(repos).size} repositories, ${goldFiles} gold files; query = the commit message, searched at the parent commit; Acc@k = all gold files within the top k distinct files; file recall@k = share of gold files within their instance's top k.`,
    multifileMarkdown([...ran.map((l) => row(l, `Codebase Copilot: ${l}`)), row(BASELINE_LABEL, BASELINE_LABEL)]),
    Object.entries(run.unsupported)
      .map(([l, e]) => `- ${l}: not run (${e})`)
      .join("\n"),
    perRepo.length ? `<details><summary>By repository</summary>\n\n${multifileMarkdown(perRepo)}\n\n</details>` : "",
    provenance(meta),
  ]
    .filter(Boolean)
    .join("\n\n");
}
