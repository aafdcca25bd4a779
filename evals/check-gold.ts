/**
 * Checks a golden set against its corpus: every gold file exists, every range is inside the
 * file and opens on the symbol it names (or on that definition's leading comments); see
 * `checkGoldSpan`. With `--fill`, gold entries without lines get them from `locateSymbol` (review
 * the diff before committing).
 *
 *   node evals/check-gold.ts [--set evals/sets/fixture.json] [--corpus evals/fixture-repo] [--fill]
 *   node evals/check-gold.ts --set polyglot [--corpus-root /tmp/cc-corpora] [--repos gin,ripgrep]
 *
 * `--set polyglot` checks every `evals/sets/polyglot/*.json` against the tree
 * `evals/export-corpora.ts --set polyglot` exported for it. Exit code 1 when any gold span is wrong.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseCli } from "../scripts/lib/cli.ts";
import { checkGoldSpan, locateSymbol } from "./lib/gold.ts";
import { planSetRuns } from "./lib/sets.ts";
import { readSetDir } from "./lib/sets-fs.ts";
import type { GoldSpan } from "./lib/types.ts";

const USAGE = `Usage: node evals/check-gold.ts [--set evals/sets/fixture.json] [--corpus evals/fixture-repo] [--fill]
       node evals/check-gold.ts --set polyglot [--corpus-root /tmp/cc-corpora] [--repos gin,ripgrep]

Checks that every gold span of a set exists in its corpus and opens on the symbol it names.
Exit status 1 when a span is wrong.

  --set FILE|polyglot   the golden set (default evals/sets/fixture.json)
  --corpus DIR          the tree it is scored on (default evals/fixture-repo)
  --corpus-root DIR     polyglot: where evals/export-corpora.ts exported the trees
  --repos a,b           polyglot: only these sets
  --fill                give gold entries without lines their symbol's lines (review the diff)`;

const values = parseCli(USAGE, {
  set: { type: "string", default: "evals/sets/fixture.json" },
  corpus: { type: "string", default: "evals/fixture-repo" },
  "corpus-root": { type: "string", default: "/tmp/cc-corpora" },
  repos: { type: "string" },
  fill: { type: "boolean", default: false },
});

type GoldQuestions = { id: string; gold: Partial<GoldSpan>[] }[];

/** Checks (and with `fill`, completes) the gold of `questions` against `corpus`; returns counts. */
function checkQuestions(label: string, questions: GoldQuestions, corpus: string, fill: boolean): { spans: number; problems: number } {
  let problems = 0;
  let spans = 0;
  for (const q of questions) {
    for (const gold of q.gold) {
      spans++;
      const path = join(corpus, gold.file ?? "");
      if (!gold.file || !existsSync(path)) {
        console.error(`${label}${q.id}: gold file ${gold.file} does not exist in ${corpus}`);
        problems++;
        continue;
      }
      const text = readFileSync(path, "utf8");
      if (fill && (gold.startLine === undefined || gold.endLine === undefined)) {
        const found = locateSymbol(gold.file, text, gold.symbol ?? "");
        if (found) Object.assign(gold, found);
      }
      const why = checkGoldSpan(text, gold as GoldSpan);
      if (why) {
        console.error(`${label}${q.id}: ${gold.file} ${gold.symbol ?? "(file-level)"}: ${why}`);
        problems++;
      }
    }
  }
  return { spans, problems };
}

let total = { questions: 0, spans: 0, problems: 0 };
if (values.set === "polyglot") {
  const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
  const runs = planSetRuns(readSetDir(join(ROOT, "evals", "sets", "polyglot")), resolve(values["corpus-root"]!), values.repos ? values.repos.split(",") : []);
  for (const { set, corpus } of runs) {
    if (!existsSync(corpus)) {
      console.error(`${set.name}: no tree at ${corpus}; run evals/export-corpora.ts --set polyglot first`);
      total.problems++;
      continue;
    }
    const r = checkQuestions(`${set.name} `, set.questions, corpus, false);
    console.log(`${set.name} (${set.repo}@${set.commit!.slice(0, 7)}): ${set.questions.length} questions, ${r.spans} gold spans, ${r.problems} problems`);
    total = { questions: total.questions + set.questions.length, spans: total.spans + r.spans, problems: total.problems + r.problems };
  }
} else {
  const set = JSON.parse(readFileSync(values.set!, "utf8")) as { questions: GoldQuestions };
  const r = checkQuestions("", set.questions, values.corpus!, values.fill!);
  if (values.fill) writeFileSync(values.set!, JSON.stringify(set, null, 2) + "\n");
  total = { questions: set.questions.length, ...r };
}
console.log(`${total.questions} questions, ${total.spans} gold spans, ${total.problems} problems`);
process.exit(total.problems ? 1 : 0);
