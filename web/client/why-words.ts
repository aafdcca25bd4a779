/**
 * "Why this result" in words: which channels found a result and at what rank, and what each
 * ranking stage that changed its score did (worker/search/ranking/stages.ts; the stage names are
 * the ones `explain` reports, docs/ranking.md says what each does). Pure: results.ts draws the
 * lines and keeps the raw record behind a second disclosure.
 */

/** A result's `explain` record, as `GET /api/search?explain=true` returns it. */
export interface ExplainRecord {
  ranks?: Record<string, number>;
  fused?: number;
  stages?: { stage: string; factor: number }[];
}

const CHANNEL_WORDS: Record<string, string> = {
  bm25: "its words (keyword match)",
  vector: "its meaning (embedding match)",
  symbol: "a symbol name",
  path: "its file path",
};

/** What a stage that raised (first) or lowered (second) a score saw. */
const STAGE_WORDS: Record<string, [string, string]> = {
  coverage: ["it holds many of the query's words", "it holds few of the query's words"],
  support: ["it is the kind of file the question asks for", "it is documentation, an example or a test, which the question did not ask for"],
  "file-evidence": ["other parts of its file match too", "other parts of its file match less"],
  trace: ["its file is in the pasted stack trace", "its file is far from where the stack trace ends"],
  option: ["its file declares a command-line option the query names", "it does not declare the option the query names"],
  message: ["it raises the message the query pastes", "it does not raise the pasted message"],
  qualified: ["it is the Type.member the query names", "it is not the Type.member the query names"],
  receiver: ["it belongs to the class the report is about", "it is not of the class the report is about"],
  entry: ["its file is where the program starts", "it is a build or tooling script, not where the program starts"],
  imports: ["it does more than import", "it only imports names, and the question is about behaviour"],
};

/** "x1.57" / "x0.5": a factor as the page shows it. */
function times(factor: number): string {
  return `×${Number(factor.toFixed(2))}`;
}

/** One line per channel: "Found by its words (keyword match) at rank 2." */
export function channelLines(ranks: Record<string, number> | undefined): string[] {
  const entries = Object.entries(ranks ?? {}).sort((a, b) => a[1] - b[1]);
  if (!entries.length) return ["No search channel ranked it; a ranking stage brought it in."];
  return entries.map(([ch, rank]) => `Found by ${CHANNEL_WORDS[ch] ?? `the ${ch} channel`} at rank ${rank}.`);
}

/** One line per stage that changed the score: "Raised ×1.57: it holds many of the query's words (coverage)." */
export function stageLines(stages: ExplainRecord["stages"]): string[] {
  const changed = (stages ?? []).filter((s) => Math.abs(s.factor - 1) > 0.005);
  if (!changed.length) return ["No ranking stage changed its score."];
  return changed.map((s) => {
    const [up, down] = STAGE_WORDS[s.stage] ?? ["a ranking stage favoured it", "a ranking stage held it back"];
    return `${s.factor > 1 ? "Raised" : "Lowered"} ${times(s.factor)}: ${s.factor > 1 ? up : down} (stage “${s.stage}”).`;
  });
}
