/**
 * @module worker/search/ranking/defect
 *
 * Stage "defect": a query that says something is broken ("fix stream handling in Safari", "post
 * async regression with empty body", a commit message or an issue title) is answered by code: the
 * fix lands in source files. Manifests, lint and build configuration (`package.json`,
 * `tslint.json`, `karma.conf.cjs`) and prose (`README.md`, `ECOSYSTEM.md`) repeat a project's
 * words ("fetch", "stream", "async", even "fix" in `lint:fix`) in a few dense chunks and took
 * top-5 file slots from the fix (axios and fastify in evals/sets/multifile.json). Their chunks
 * get DEFECT_NON_CODE_PRIOR. A pasted report's prose already gets RERANK.reportProsePrior in the
 * rerank, so for a report only the data and tooling files are demoted here.
 */
import { applyPrior } from "../prior";
import { PROSE_LANGUAGES } from "../rerank";
import type { Candidate, RankingStage } from "./stage";
import { DEFECT_NON_CODE_PRIOR } from "./weights";

/**
 * Words by which a query says something is broken or was fixed. "error" and "exception" are left
 * out: questions about error handling ("where are errors logged") use them without a defect.
 */
const DEFECT_WORD =
  /\b(?:fix(?:es|ed|ing)?|bugs?|bugfix|crash(?:es|ed|ing)?|regressions?|broken|wrong(?:ly)?|incorrect(?:ly)?|fails?|failing|failed|hangs?|leaks?)\b/i;

/** Languages of data and configuration files (indexer/chunk/languages.ts names). */
const DATA_LANGUAGES: ReadonlySet<string> = new Set(["json", "yaml", "toml"]);

/** Build, lint and test-runner configuration written in a programming language. */
const TOOLING_FILE = /(?:^|\/)(?:[^/]*\.conf(?:ig)?\.[cm]?[jt]s|\.eslintrc[^/]*|gulpfile[^/]*|gruntfile[^/]*|rollup[^/]*\.[cm]?js|webpack[^/]*\.[cm]?js)$/i;

/** Whether `text` says something is broken or was fixed. */
export function namesDefect(text: string): boolean {
  return DEFECT_WORD.test(text);
}

/** Whether a candidate is not code for a defect query: data, tooling, or (with `prose`) prose. */
export function isNonCode(c: Pick<Candidate, "language" | "path">, prose: boolean): boolean {
  return DATA_LANGUAGES.has(c.language) || TOOLING_FILE.test(c.path) || (prose && PROSE_LANGUAGES.has(c.language));
}

export const defectStage: RankingStage = {
  name: "defect",
  planElement: "stages.defect",
  needs: [],
  applies: (plan) => namesDefect(plan.query.text),
  run: (candidates, ctx) => applyPrior(candidates, (c) => (isNonCode(c, ctx.plan.stages.defect.prose) ? DEFECT_NON_CODE_PRIOR : 1)),
};
