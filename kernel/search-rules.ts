/**
 * @module kernel/search-rules
 *
 * The list of switchable report rules of search (issue #46): stable id, one-line description,
 * where the rule lives. Here, without imports, so that both the Worker (worker/search/rules.ts,
 * which switches them) and the evaluation runner under Node (evals/lib/rule-ablation.ts) read it.
 */

/** One rule: its id, what it does, and where it lives. */
export interface RuleInfo {
  id: string;
  description: string;
  where: string;
}

/** Every switchable rule. Ids are stable: evaluation output and docs/ranking.md name them. */
export const RULES = [
  { id: "template.strip", description: "drop lines the repo's own issue template supplied", where: "worker/search/issue-templates.ts" },
  {
    id: "clean.markup",
    description: "drop HTML comments and tags, hex numbers, fence info strings and empty form fields",
    where: "worker/search/readers/clean.ts",
  },
  {
    id: "clean.listing",
    description: "drop package listings (runs of name + version rows, versioned lines) and their heading",
    where: "worker/search/readers/clean.ts",
  },
  { id: "clean.banner", description: "drop Python and IPython interpreter banners", where: "worker/search/readers/clean.ts" },
  { id: "clean.test-session", description: "drop pytest session headers, titled rules and docs links", where: "worker/search/readers/clean.ts" },
  { id: "clean.long-path", description: "shorten paths of 4+ segments to their last 2", where: "worker/search/readers/clean.ts" },
  {
    id: "report.placeholder-names",
    description: "a report's metasyntactic names (foo, spam, hoge) are not query terms",
    where: "worker/search/readers/report-words.ts",
  },
  {
    id: "report.import-aliases",
    description: "a report's import aliases (import numpy as np) are not query terms",
    where: "worker/search/readers/report-words.ts",
  },
  {
    id: "report.numbered-locals",
    description: "a report's numbered placeholders it binds (M1 = ..., t1, t2 = ...) are not query terms",
    where: "worker/search/readers/report-words.ts",
  },
  {
    id: "report.hyphen-compounds",
    description: "a report's hyphenated words are also searched joined (dry-run -> dryrun)",
    where: "worker/search/readers/report.ts",
  },
  { id: "report.title-names", description: "code names in a report's title weigh as the title's", where: "worker/search/readers/report.ts" },
  {
    id: "frame.trace",
    description: "stack frames: the trace stage ranks the files and functions a trace names",
    where: "worker/search/stack-frames.ts, ranking/trace.ts",
  },
  { id: "frame.callee", description: "a TypeError's signature names the called function (callee evidence)", where: "worker/search/stack-frames.ts" },
  { id: "report.options", description: "--flags a report names rank the file declaring them", where: "worker/search/option-flags.ts, ranking/option.ts" },
  {
    id: "report.messages",
    description: "error messages a report quotes rank the code that raises them",
    where: "worker/search/error-messages.ts, ranking/message.ts",
  },
  {
    id: "report.receivers",
    description: "receiver.member uses in a report rank the receiver's class",
    where: "worker/search/receiver-prior.ts, ranking/receiver.ts",
  },
  { id: "report.file-evidence", description: "file-level evidence stage for reports", where: "worker/search/file-evidence.ts, ranking/file-evidence.ts" },
] as const satisfies readonly RuleInfo[];

/** A rule's id. */
export type RuleId = (typeof RULES)[number]["id"];

/** Every rule id, for the request schema. */
export const RULE_IDS = RULES.map((r) => r.id) as [RuleId, ...RuleId[]];
