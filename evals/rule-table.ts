/**
 * The rule table of docs/ranking.md from saved `--disable-rule all` runs (issue #46):
 * `node evals/rule-table.ts --runs a.json,b.json [--write]`. Prints it; with `--write`, replaces the
 * `rule-table` block of docs/ranking.md. Exits 2 naming a file that is not a saved rule run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseCli } from "../scripts/lib/cli.ts";
import { combinedRuleMarkdown, type SavedRuleRun } from "./lib/rule-ablation.ts";
import { replaceBlock } from "./lib/readme.ts";

const USAGE = "Usage: node evals/rule-table.ts --runs <saved run JSON>[,<more>] [--write]";
const args = parseCli(USAGE, { runs: { type: "string" }, write: { type: "boolean", default: false } });
const files = (args.runs ?? "").split(",").filter(Boolean);
if (!files.length) {
  console.error(`error: name the saved runs (npm run eval -- --set S --disable-rule all --out FILE)\n${USAGE}`);
  process.exit(2);
}
const runs = files.map((f) => {
  const r = JSON.parse(readFileSync(f, "utf8")) as SavedRuleRun;
  if (!Array.isArray(r.ruleMoves)) {
    console.error(`error: ${f} has no ruleMoves; pass the --out file of a --disable-rule all run`);
    process.exit(2);
  }
  return r;
});
const markdown = combinedRuleMarkdown(runs);
console.log(markdown);
if (args.write) {
  const doc = join(resolve(dirname(new URL(import.meta.url).pathname), ".."), "docs", "ranking.md");
  writeFileSync(doc, replaceBlock(readFileSync(doc, "utf8"), "rule-table", markdown, "### Report rules and what each one earns"));
  process.stderr.write("updated docs/ranking.md block rule-table\n");
}
