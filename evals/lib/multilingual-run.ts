/**
 * @module evals/lib/multilingual-run
 *
 * `npm run eval -- --set multilingual` (Node): indexes each set's tree (the fixture from
 * evals/fixture-repo, the others from `--corpus-root`, exported by evals/export-corpora.ts), asks
 * every question translated and in English (./multilingual.ts) and returns the markdown block
 * with its provenance line.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "./client.ts";
import { readCorpus } from "./corpus-fs.ts";
import { indexCorpus } from "./evaluate.ts";
import { multilingualMarkdown, runMultilingualSet, type PairedOutcome } from "./multilingual.ts";
import { provenance } from "./report.ts";
import { corpusFolderName } from "./sets.ts";
import { readSetDir } from "./sets-fs.ts";

/** What the runner passes in. */
export interface MultilingualRunOptions {
  client: ApiClient;
  root: string;
  corpusRoot: string;
  /** Only these sets (file names without .json); all when empty. */
  only: string[];
  k: number;
  meta: { date: string; commit: string; command: string };
  /** The server's configuration line for the provenance (called after the first set is indexed). */
  config: (repoId: string) => Promise<string>;
  log: (line: string) => void;
}

/** Runs the sets; returns every pair and the markdown block. Throws naming a set whose tree is missing. */
export async function runMultilingualEval(o: MultilingualRunOptions): Promise<{ pairs: PairedOutcome[]; markdown: string; config: string }> {
  const sets = readSetDir(join(o.root, "evals", "sets", "multilingual")).filter((s) => !o.only.length || o.only.includes(s.name));
  const pairs: PairedOutcome[] = [];
  let config = "";
  const indexed: string[] = [];
  for (const set of sets) {
    const corpus = set.repo === "fixture" ? join(o.root, "evals", "fixture-repo") : join(o.corpusRoot, corpusFolderName(set.repo, set.commit ?? ""));
    if (!existsSync(corpus)) throw new Error(`${set.name}: no tree at ${corpus}; export it first: node evals/export-corpora.ts --out ${o.corpusRoot} ...`);
    const repoId = `eval-ml-${set.name}`;
    const files = readCorpus(corpus, "whole");
    o.log(`indexing ${files.length} files of ${corpus} into ${repoId} ...`);
    const r = await indexCorpus(o.client, repoId, files);
    o.log(`indexed in ${r.wallMs} ms`);
    indexed.push(`${set.repo === "fixture" ? "evals/fixture-repo" : `${set.repo}@${set.commit?.slice(0, 7)}`} (${files.length} files)`);
    config ||= await o.config(repoId);
    const got = await runMultilingualSet(o.client, set, repoId, o.k);
    pairs.push(...got);
    const hit5 = (xs: PairedOutcome[], f: (p: PairedOutcome) => number | null) => xs.filter((p) => (f(p) ?? 99) <= 5).length;
    o.log(`${set.name}: R@5 translated ${hit5(got, (p) => p.translated.rank)}/${got.length}, English ${hit5(got, (p) => p.english.rank)}/${got.length}`);
  }
  const title = `**multilingual (evals/sets/multilingual/)**: ${pairs.length} questions in ${new Set(pairs.map((p) => p.lang)).size} languages, each asked as written and as its English original; trees indexed whole as their own repos: ${indexed.join(", ")}`;
  const markdown = `${title}\n\n${multilingualMarkdown(pairs)}\n\n${provenance({ ...o.meta, config })}`;
  return { pairs, markdown, config };
}
