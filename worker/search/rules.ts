/**
 * @module worker/search/rules
 *
 * The registry of report rules (issue #46, "every rule earns its place"): each rule that reads a
 * pasted report (issue-template lines, banners, listings, placeholders, aliases, frames,
 * receivers ...) has a stable id, a one-line description and the file it lives in (the list is in
 * kernel/search-rules.ts, which the evaluation runner imports too). A search
 * may turn rules off by id (`disable_rules`, REST only, admin callers with `explain`: see
 * worker/services/search.ts and docs/ranking.md), so that an evaluation indexes a set once and
 * measures each rule by switching it off per request (evals/lib/rule-ablation.ts).
 *
 * Two kinds of switch: a rule that shapes the reading of the text asks `ruleOn(id)` where it is
 * applied (the readers are synchronous, and `withRulesOff` sets the switches only for the
 * duration of one synchronous reading, so concurrent searches never see each other's); a rule
 * that is a plan element is cleared from the plan after reading (`switchPlan`).
 */
import type { RuleId } from "../../kernel/search-rules";
import type { QueryPlan } from "./plan";

export { RULE_IDS, RULES, type RuleId, type RuleInfo } from "../../kernel/search-rules";

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
export function switchPlan(plan: QueryPlan, off: ReadonlySet<string> | undefined): QueryPlan {
  if (!off?.size) return plan;
  const has = (id: RuleId) => off.has(id);
  const query = { ...plan.query, titleNames: has("report.title-names") ? [] : plan.query.titleNames };
  return {
    ...plan,
    query,
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
