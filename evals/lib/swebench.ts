/**
 * @module evals/lib/swebench
 *
 * File localization on SWE-bench Lite (Node only: reads exported corpora from disk). For each
 * instance: upload the repository at `base_commit` (all files; the product filters), search
 * with the whole problem statement, rank distinct files by their best chunk, and score Acc@k.
 * Every instance of one repository reuses one repo id, so moving to the next commit is an
 * incremental re-index (only changed files are processed). Beside it, a plain whole-file BM25
 * (evals/lib/bm25.ts) runs over the same files in the same process.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { WholeFileBm25 } from "./bm25.ts";
import { ApiClient, ApiError } from "./client.ts";
import { looksLikeText, readCorpus } from "./corpus-fs.ts";
import type { CorpusFile } from "./archive.ts";
import { indexCorpus } from "./evaluate.ts";
import { rankedFiles, scoreLocalization, type LocalizationOutcome } from "./metrics.ts";
import { corpusFolderName } from "./sets.ts";
import type { SearchVariant, SwebenchInstance } from "./types.ts";

/** Options of `runSwebench`. */
export interface SwebenchOptions {
  /** Folder holding one exported tree per instance: `<root>/<name>-<short commit>`. */
  corpusRoot: string;
  variants: SearchVariant[];
  /** Results requested per search (enough for 10 distinct files under a per-file cap). */
  k: number;
  /** Largest file the baseline reads, as the product's MAX_FILE_BYTES (default 1 MiB). */
  maxFileBytes?: number;
  /** Keep every result with its `explain` (channel ranks, stage factors) in the details, for error analysis. */
  explain?: boolean;
  log?: (line: string) => void;
  /** The `--set` of evals/export-corpora.ts that exports the trees, for the missing-tree error (default `swebench`). */
  exportHint?: string;
}

/** Outcomes per variant label, plus the baseline's under `bm25-whole-file`. */
export interface SwebenchRun {
  outcomes: Record<string, LocalizationOutcome[]>;
  /** Variants the server rejected, with the reason. */
  unsupported: Record<string, string>;
  /** `indexFailed`: files the indexer gave up on (skipped `index_failed`); a partial index scores low for reasons that are not ranking. */
  indexRuns: { instance: string; repo: string; wallMs: number; files: number; indexFailed: number }[];
  /** Per variant label (and the baseline), what each instance ranked: for error analysis of the misses. */
  details: Record<string, SwebenchDetail[]>;
  /** Whether the baseline used the product's own file list (else the upload minus binary/oversized files). */
  baselineFiles: "product-listing" | "upload-filtered";
}

/** What one search ranked for one instance. */
export interface SwebenchDetail {
  id: string;
  gold: string[];
  /** 1-based rank of each gold file among the distinct files (null: not in the results). */
  goldRanks: (number | null)[];
  /** The first 10 distinct files. */
  top: string[];
  /** The BM25 terms the server selected (`stats.queryTerms`); absent for the baseline. */
  queryTerms?: string[];
  /** Per gold file, the channel ranks of its best chunk (`ranks` of the result), when it was returned. */
  goldChannelRanks?: (Record<string, number> | null)[];
  /** With `explain`: every result as the server returned it, without its snippet. */
  results?: Record<string, unknown>[];
}

/** Detail of one ranking: gold ranks and the head of the list. */
function detail(id: string, gold: string[], files: string[], queryTerms?: string[]): SwebenchDetail {
  const goldRanks = gold.map((g) => (files.includes(g) ? files.indexOf(g) + 1 : null));
  return { id, gold, goldRanks, top: files.slice(0, 10), ...(queryTerms ? { queryTerms } : {}) };
}

/** Label of the baseline method in outcomes and tables. */
export const BASELINE_LABEL = "BM25 whole files (baseline)";

/** Runs the instances in order; throws naming the missing corpus folder and how to export it. */
export async function runSwebench(client: ApiClient, instances: SwebenchInstance[], options: SwebenchOptions): Promise<SwebenchRun> {
  const log = options.log ?? (() => {});
  const run: SwebenchRun = {
    outcomes: { [BASELINE_LABEL]: [] },
    details: { [BASELINE_LABEL]: [] },
    unsupported: {},
    indexRuns: [],
    baselineFiles: "upload-filtered",
  };
  for (const v of options.variants) {
    run.outcomes[v.label] = [];
    run.details[v.label] = [];
  }
  for (const inst of instances) {
    const dir = join(options.corpusRoot, corpusFolderName(inst.repo, inst.base_commit));
    if (!existsSync(dir)) {
      throw new Error(
        `corpus ${dir} is missing; export it first: node evals/export-corpora.ts --set ${options.exportHint ?? "swebench"} --out ${options.corpusRoot} --git-dir ${inst.repo}=<path to a clone's .git>`,
      );
    }
    const repoId = `swe-${inst.repo
      .slice(inst.repo.indexOf("/") + 1)
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, "-")}`;
    const files = readCorpus(dir, "whole");
    const indexed = await indexCorpus(client, repoId, files, {});
    const indexFailed = (indexed.status.skipped as Record<string, number> | undefined)?.index_failed ?? 0;
    run.indexRuns.push({ instance: inst.instance_id, repo: repoId, wallMs: indexed.wallMs, files: files.length, indexFailed });
    log(`${inst.instance_id}: indexed ${files.length} files in ${indexed.wallMs} ms${indexFailed ? `; WARNING: ${indexFailed} files failed to index` : ""}`);

    const indexedFiles = await listIndexedFiles(client, repoId);
    const listing = indexedFiles ? new Set(indexedFiles.keys()) : null;
    if (listing) run.baselineFiles = "product-listing";
    const baseline = buildBaseline(files, listing, options.maxFileBytes ?? 1024 * 1024);
    const t0 = performance.now();
    const baseFiles = baseline.search(inst.problem_statement, 10).map((h) => h.path);
    run.outcomes[BASELINE_LABEL].push(scoreLocalization(inst.instance_id, inst.repo, baseFiles, inst.gold_files, performance.now() - t0));
    run.details[BASELINE_LABEL].push(detail(inst.instance_id, inst.gold_files, baseFiles));

    for (const v of options.variants) {
      if (run.unsupported[v.label]) continue;
      try {
        const { response, latencyMs } = await client.search({
          query: inst.problem_statement,
          repo: repoId,
          k: options.k,
          variant: v,
          explain: options.explain,
        });
        const ranked = rankedFiles(response.results ?? []);
        const outcome = scoreLocalization(inst.instance_id, inst.repo, ranked, inst.gold_files, latencyMs);
        run.outcomes[v.label].push(outcome);
        const goldChannelRanks = inst.gold_files.map((g) => response.results?.find((r) => r.path === g)?.ranks ?? null);
        const results = options.explain
          ? (response.results ?? []).map((r) => Object.fromEntries(Object.entries(r).filter(([key]) => key !== "snippet")))
          : undefined;
        run.details[v.label].push({
          ...detail(inst.instance_id, inst.gold_files, ranked, response.stats?.queryTerms),
          goldChannelRanks,
          ...(results ? { results } : {}),
        });
        log(
          `  ${v.label}: gold at ${outcome.allFoundAt ?? "-"} (${Math.round(latencyMs)} ms); baseline at ${run.outcomes[BASELINE_LABEL].at(-1)?.allFoundAt ?? "-"}`,
        );
      } catch (err) {
        if (err instanceof ApiError && err.status === 400) run.unsupported[v.label] = err.message;
        else throw err;
      }
    }
  }
  return run;
}

/** The baseline over the files the product indexed (when it lists them) or the text files uploaded. */
function buildBaseline(files: CorpusFile[], listing: Set<string> | null, maxFileBytes: number): WholeFileBm25 {
  const bm25 = new WholeFileBm25();
  const decoder = new TextDecoder();
  for (const f of files) {
    if (listing ? !listing.has(f.path) : f.bytes.byteLength > maxFileBytes || !looksLikeText(f.bytes)) continue;
    bm25.add(f.path, decoder.decode(f.bytes));
  }
  return bm25;
}

/**
 * Files of the repo's current snapshot with their line counts, from `GET /api/repos/{id}/tree`
 * (paged by `offset`), or null when the server has no such listing.
 */
export async function listIndexedFiles(client: ApiClient, repo: string): Promise<Map<string, number> | null> {
  const files = new Map<string, number>();
  let offset: number | null = 0;
  while (offset !== null) {
    let body: { files?: { path: string; lines?: number }[]; next_offset?: number | null };
    try {
      body = await client.request("GET", `/api/repos/${encodeURIComponent(repo)}/tree?offset=${offset}`);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 405)) return null;
      throw err;
    }
    if (!Array.isArray(body.files)) return null;
    for (const f of body.files) files.set(f.path, f.lines ?? 0);
    offset = body.files.length ? (body.next_offset ?? null) : null;
  }
  return files;
}
