/**
 * @module worker/search/rules
 *
 * The registry of report rules (issue #46, "every rule earns its place"): each rule that reads a
 * pasted report (issue-template lines, banners, listings, placeholders, aliases, frames,
 * receivers ...) has a stable id here, a one-line description and the file it lives in. A search
 * may turn rules off by id (`disable_rules`, REST only, admin callers with `explain`: see
 * worker/services/search.ts and docs/ranking.md), so that an evaluation indexes a set once and
 * measures each rule by switching it off per request (evals/lib/rule-ablation.ts).
 *
 * Two kinds of switch: a rule that shapes the reading of the text asks `ruleOn(id)` where it is
 * applied (the readers are synchronous, and `withRulesOff` sets the switches only for the
 * duration of one synchronous reading, so concurrent searches never see each other's); a rule
 * that is a plan element is cleared from the plan after reading (`switchPlan`).
 */
import type { QueryPlan } from "./plan";

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
  { id: "clean.environment", description: "drop environment reports (runs of key: version rows)", where: "worker/search/readers/clean.ts" },
  { id: "clean.banner", description: "drop Python and IPython interpreter banners", where: "worker/search/readers/clean.ts" },
  { id: "clean.test-session", description: "drop pytest session headers, titled rules and docs links", where: "worker/search/readers/clean.ts" },
  { id: "clean.lettered-version", description: "drop versions with letters (1.2rc1, 3.0.0-beta)", where: "worker/search/readers/clean.ts" },
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
  { id: "report.channel-weights", description: "a report's own RRF channel weights (REPORT_CHANNEL_WEIGHTS)", where: "worker/search/ranking/weights.ts" },
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

const NONE: ReadonlySet<string> = new Set();
let disabled: ReadonlySet<string> = NONE;

/** Whether rule `id` applies in the reading now running (true outside `withRulesOff`). */
export function ruleOn(id: RuleId): boolean {
  return !disabled.has(id);
}

/**
 * Runs the synchronous `read` with the rules in `off` turned off and returns its result. It must
 * not be async: the switches are module state, safe only while no other search can run.
 */
export function withRulesOff<T>(off: ReadonlySet<string> | undefined, read: () => T): T {
  if (!off?.size) return read();
  const before = disabled;
  disabled = off;
  try {
    return read();
  } finally {
    disabled = before;
  }
}

/** `plan` without the plan elements of the rules in `off` (a new plan; `plan` is not changed). */
export function switchPlan(plan: QueryPlan, off: ReadonlySet<string> | undefined, defaultFusion: QueryPlan["fusion"]): QueryPlan {
  if (!off?.size) return plan;
  const has = (id: RuleId) => off.has(id);
  const query = { ...plan.query, titleNames: has("report.title-names") ? [] : plan.query.titleNames };
  return {
    ...plan,
    query,
    fusion: has("report.channel-weights") && plan.reader === "report" ? defaultFusion : plan.fusion,
    evidence: {
      ...plan.evidence,
      frames: has("frame.trace") ? [] : plan.evidence.frames,
      callee: has("frame.callee") ? null : plan.evidence.callee,
      options: has("report.options") ? [] : plan.evidence.options,
      messages: has("report.messages") ? [] : plan.evidence.messages,
    },
    stages: {
      ...plan.stages,
      trace: has("frame.trace") ? false : plan.stages.trace,
      receivers: has("report.receivers") ? [] : plan.stages.receivers,
      fileEvidence: has("report.file-evidence") ? false : plan.stages.fileEvidence,
    },
  };
}
