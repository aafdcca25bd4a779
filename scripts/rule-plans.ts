/**
 * Which report rules change the query plan of which SWE-bench Lite instances, without an index
 * (issue #46): each instance's problem statement is read with the defaults and with each rule off
 * alone (`withRulesOff` and `switchPlan`, the switch a search uses), and the two plans compared. A
 * rule that leaves an instance's plan unchanged cannot move that instance's rank, so this bounds
 * where `--disable-rule all` can find a move before the checkouts are indexed.
 *
 *   node scripts/rule-plans.ts [--repos a/b,c/d] [--instances id,id] [--root DIR] [--bench DIR]
 *
 * Prints, per rule, how many instances' plans it changes and their ids. `template.strip` is left
 * out: it reads the repo's issue templates from the index. `--root` reads another checkout's
 * search code (a `serve-snapshot.ts` export of an older commit, say).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCli } from "./lib/cli.ts";
import { bundleWorkerModules } from "./lib/sqlite-d1.ts";
import { parseSwebench, pickInstanceIds, pickInstances } from "../evals/lib/sets.ts";

const USAGE = "Usage: node scripts/rule-plans.ts [--repos a/b,c/d] [--instances id,id] [--root DIR] [--bench DIR]";
const a = parseCli(USAGE, {
  repos: { type: "string" },
  instances: { type: "string" },
  root: { type: "string" },
  bench: { type: "string", default: fileURLToPath(new URL("../../shared/bench", import.meta.url)) },
});

/** The parts of the search bundle read here. */
interface PlanBundle {
  readQuery(text: string): unknown;
  withRulesOff<T>(off: ReadonlySet<string>, read: () => T): T;
  switchPlan(plan: unknown, off: ReadonlySet<string>, defaultFusion?: unknown): unknown;
  RULE_IDS: string[];
  CHANNEL_WEIGHTS: unknown;
}

const work = mkdtempSync(join(tmpdir(), "rule-plans-"));
const bundle = join(work, "plans.mjs");
await bundleWorkerModules(
  a.root ?? fileURLToPath(new URL("..", import.meta.url)),
  'export { readQuery } from "./worker/search/readers"; export { withRulesOff, switchPlan, RULE_IDS } from "./worker/search/rules"; export { CHANNEL_WEIGHTS } from "./worker/search/ranking/weights";',
  bundle,
);
const m = (await import(bundle)) as PlanBundle;
rmSync(work, { recursive: true, force: true });

const all = parseSwebench(readFileSync(join(a.bench!, "swebench-lite-offline.jsonl"), "utf8"));
let instances: ReturnType<typeof pickInstances>;
try {
  instances = a.instances ? pickInstanceIds(all, a.instances.split(",")) : pickInstances(all, a.repos ? a.repos.split(",") : [], 1000);
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exit(2);
}

const changes = new Map<string, string[]>(m.RULE_IDS.filter((id) => id !== "template.strip").map((id) => [id, []]));
for (const inst of instances) {
  const on = JSON.stringify(m.readQuery(inst.problem_statement));
  for (const [id, ids] of changes) {
    const off = new Set([id]);
    // Older checkouts' switchPlan also takes the default fusion weights; newer ones ignore it.
    const plan = m.switchPlan(
      m.withRulesOff(off, () => m.readQuery(inst.problem_statement)),
      off,
      m.CHANNEL_WEIGHTS,
    );
    if (JSON.stringify(plan) !== on) ids.push(inst.instance_id);
  }
}
console.log(`${instances.length} instances`);
for (const [id, ids] of changes) console.log(`${id}: ${ids.length}${ids.length ? ` (${ids.join(", ")})` : ""}`);
