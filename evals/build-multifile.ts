/**
 * Builds the multi-file set (issue #47) from repositories' history: bug-fix commits whose change
 * modifies 2 to 5 source files; the message is the query, the modified source files are the gold,
 * searched at the parent commit. The rules are evals/lib/multifile-select.ts; this script only runs
 * `git log` and writes the JSON (queries, commits and gold paths, never the repositories' code).
 *
 *   node evals/build-multifile.ts --git-dir pallets/werkzeug=/path/to/werkzeug.git [--git-dir ...] \
 *     [--since 2017-01-01] [--until 2025-06-01] [--per-repo 8] [--out evals/sets/multifile.json] [--verbose]
 *
 * `--until` pins the window, so rebuilding from newer mirrors selects the same commits.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseCli } from "../scripts/lib/cli.ts";
import { LOG_FORMAT, parseGitLog, rejectReason, selectInstances, type MultifileInstance } from "./lib/multifile-select.ts";

const USAGE = `Usage: node evals/build-multifile.ts --git-dir owner/name=<git dir> [...] [options]

  --git-dir O/N=PATH   a repository to select from (repeat)
  --since DATE         oldest commit date considered (default 2017-01-01)
  --until DATE         newest commit date considered (default 2025-06-01)
  --per-repo N         most recent kept commits per repository (default 8)
  --out FILE           where the set goes (default evals/sets/multifile.json)
  --verbose            print every candidate's reason to stderr`;

const args = parseCli(USAGE, {
  "git-dir": { type: "string", multiple: true, default: [] },
  since: { type: "string", default: "2017-01-01" },
  until: { type: "string", default: "2025-06-01" },
  "per-repo": { type: "string", default: "8" },
  out: { type: "string" },
  verbose: { type: "boolean", default: false },
});

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
if (!args["git-dir"]!.length) {
  process.stderr.write(`error: pass at least one --git-dir owner/name=<git dir>\n\n${USAGE}\n`);
  process.exit(2);
}
const instances: MultifileInstance[] = [];
for (const pair of args["git-dir"]!) {
  const eq = pair.indexOf("=");
  if (eq < 0 || !pair.slice(0, eq).includes("/")) {
    process.stderr.write(`error: --git-dir takes owner/name=path, got "${pair}"\n`);
    process.exit(2);
  }
  const repo = pair.slice(0, eq);
  const gitDir = resolve(pair.slice(eq + 1));
  const log = execFileSync(
    "git",
    [
      `--git-dir=${gitDir}`,
      "log",
      "--no-merges",
      "--no-renames",
      "--name-status",
      `--since=${args.since}`,
      `--until=${args.until}`,
      `--format=${LOG_FORMAT}`,
      "HEAD",
    ],
    { maxBuffer: 2 ** 30 },
  ).toString("utf8");
  const commits = parseGitLog(log);
  if (args.verbose) for (const c of commits) process.stderr.write(`${c.sha.slice(0, 10)} ${rejectReason(c) ?? "KEPT"}: ${c.message.split("\n")[0]}\n`);
  const picked = selectInstances(repo, commits, Number(args["per-repo"]));
  const kept = commits.filter((c) => rejectReason(c) === null).length;
  process.stderr.write(`${repo}: ${commits.length} commits in the window, ${kept} kept, ${picked.length} taken\n`);
  instances.push(...picked);
}
const out = resolve(args.out ?? join(ROOT, "evals", "sets", "multifile.json"));
const rules = `node evals/build-multifile.ts --since ${args.since} --until ${args.until} --per-repo ${args["per-repo"]} (rules: evals/lib/multifile-select.ts)`;
writeFileSync(out, `${JSON.stringify({ built: rules, instances }, null, 2)}\n`);
process.stderr.write(`wrote ${instances.length} instances over ${new Set(instances.map((i) => i.repo)).size} repositories to ${out}\n`);
