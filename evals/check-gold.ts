/**
 * Checks a golden set against its corpus: every gold file exists, every range is inside the
 * file and its first line names the symbol. With `--fill`, gold entries without lines get them
 * from `locateSymbol` (review the diff before committing).
 *
 *   node evals/check-gold.ts [--set evals/sets/fixture.json] [--corpus evals/fixture-repo] [--fill]
 *
 * Exit code 1 when any gold span is wrong.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkGoldSpan, locateSymbol } from "./lib/gold.ts";
import type { GoldSpan } from "./lib/types.ts";

const { values } = parseArgs({
  options: {
    set: { type: "string", default: "evals/sets/fixture.json" },
    corpus: { type: "string", default: "evals/fixture-repo" },
    fill: { type: "boolean", default: false },
  },
});

const set = JSON.parse(readFileSync(values.set, "utf8")) as { questions: { id: string; gold: Partial<GoldSpan>[] }[] };
let problems = 0;
let spans = 0;
for (const q of set.questions) {
  for (const gold of q.gold) {
    spans++;
    const path = join(values.corpus, gold.file ?? "");
    if (!gold.file || !existsSync(path)) {
      console.error(`${q.id}: gold file ${gold.file} does not exist in ${values.corpus}`);
      problems++;
      continue;
    }
    const text = readFileSync(path, "utf8");
    if (values.fill && (gold.startLine === undefined || gold.endLine === undefined)) {
      const found = locateSymbol(gold.file, text, gold.symbol ?? "");
      if (found) Object.assign(gold, found);
    }
    const why = checkGoldSpan(text, gold as GoldSpan);
    if (why) {
      console.error(`${q.id}: ${gold.file} ${gold.symbol}: ${why}`);
      problems++;
    }
  }
}
if (values.fill) writeFileSync(values.set, JSON.stringify(set, null, 2) + "\n");
console.log(`${set.questions.length} questions, ${spans} gold spans, ${problems} problems`);
process.exit(problems ? 1 : 0);
