/**
 * Exports the trees the public sets are scored on, OUTSIDE the project (they are others'
 * code and never committed): one folder per (repository, commit), `<out>/<name>-<short commit>`,
 * made with `git --git-dir=<dir> archive <commit> | tar -x -C <folder>` (file by file, skipping
 * blobs the repository lacks, when that fails: evals/lib/git-export.ts).
 *
 *   node evals/export-corpora.ts --set hono-50|swebench|multifile|polyglot|reports|unanswerable --out /tmp/cc-corpora \
 *     --git-dir honojs/hono=/path/to/hono/.git [--git-dir psf/requests=...] \
 *     [--repos psf/requests,pallets/flask] [--per-repo 20] [--bench-dir ../shared/bench]
 *
 * `polyglot`, `reports` and `unanswerable` read the pinned commits of evals/sets/<set>/*.json (`--repos gin,...`
 * narrows it, by set name or owner/name).
 *
 * Folders that already exist are kept. Repositories without a `--git-dir` are reported and skipped.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseCli } from "../scripts/lib/cli.ts";
import { exportTree } from "./lib/git-export.ts";
import { corpusFolderName, parseSwebench, pickInstances, planSetRuns } from "./lib/sets.ts";
import { readSetDir } from "./lib/sets-fs.ts";
import { parseMultifileSet } from "./lib/multifile.ts";

/** The folders of evals/sets whose sets pin a repository and commit each. */
const SET_DIRS = ["polyglot", "reports", "unanswerable"];

const USAGE = `Usage: node evals/export-corpora.ts --set hono-50|swebench|multifile|polyglot|reports|unanswerable --git-dir owner/name=<git dir> [...]

Exports the trees a public set is scored on, outside the project (never committed).

  --set NAME            hono-50, swebench, multifile, or a folder of evals/sets (polyglot, reports, unanswerable)
  --out DIR             one folder per (repository, commit) under DIR (default /tmp/cc-corpora)
  --git-dir O/N=PATH    where repository O/N's git objects are (repeat per repository)
  --repos a,b           only these repositories (owner/name, or polyglot set names)
  --per-repo N          swebench: at most N instances per repository (default 20)
  --bench-dir DIR       public sets (default ../shared/bench next to the project)`;

const args = parseCli(USAGE, {
  set: { type: "string" },
  out: { type: "string", default: "/tmp/cc-corpora" },
  "git-dir": { type: "string", multiple: true, default: [] },
  repos: { type: "string" },
  "per-repo": { type: "string", default: "20" },
  "bench-dir": { type: "string" },
});

/** Exits with status 2 after a one-line error and the usage. */
function fail(message: string): never {
  process.stderr.write(`error: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");
const benchDir = resolve(args["bench-dir"] ?? join(ROOT, "..", "shared", "bench"));
const out = resolve(args.out!);
if (out.startsWith(ROOT + "/") || out === ROOT) fail(`--out must be outside the project (${ROOT}); corpora are never committed`);

const gitDirs = new Map<string, string>();
for (const pair of args["git-dir"]!) {
  const eq = pair.indexOf("=");
  if (eq < 0) fail(`--git-dir takes owner/name=path, got "${pair}"`);
  gitDirs.set(pair.slice(0, eq), resolve(pair.slice(eq + 1)));
}

let needed: { repo: string; commit: string }[];
if (args.set === "hono-50") {
  const set = JSON.parse(readFileSync(join(benchDir, "hono-50.json"), "utf8")) as { repo: string; commit: string };
  needed = [{ repo: set.repo, commit: set.commit }];
} else if (args.set === "swebench") {
  const all = parseSwebench(readFileSync(join(benchDir, "swebench-lite-offline.jsonl"), "utf8"));
  needed = pickInstances(all, args.repos ? args.repos.split(",") : [], Number(args["per-repo"])).map((i) => ({ repo: i.repo, commit: i.base_commit }));
} else if (args.set === "multifile") {
  // Each instance is searched at the parent of its fix (evals/lib/multifile.ts).
  const all = parseMultifileSet(JSON.parse(readFileSync(join(ROOT, "evals", "sets", "multifile.json"), "utf8")));
  needed = all.filter((d) => !args.repos || args.repos.split(",").includes(d.repo)).map((d) => ({ repo: d.repo, commit: d.base_commit }));
} else if (args.set && SET_DIRS.includes(args.set)) {
  // A set without a pinned commit (the fixture's) has no tree to export.
  const sets = readSetDir(join(ROOT, "evals", "sets", args.set)).filter((set) => set.commit);
  needed = planSetRuns(sets, out, args.repos ? args.repos.split(",") : []).map(({ set }) => ({ repo: set.repo, commit: set.commit! }));
} else {
  fail(`--set must be hono-50, swebench, multifile, ${SET_DIRS.join(", ")}${args.set ? `; got "${args.set}"` : ""}`);
}

mkdirSync(out, { recursive: true });
const seen = new Set<string>();
for (const { repo, commit } of needed) {
  const folder = join(out, corpusFolderName(repo, commit));
  if (seen.has(folder)) continue;
  seen.add(folder);
  if (existsSync(folder)) {
    console.log(`kept     ${folder}`);
    continue;
  }
  const gitDir = gitDirs.get(repo);
  if (!gitDir) {
    console.log(`skipped  ${repo}@${commit.slice(0, 7)}: pass --git-dir ${repo}=<path to its .git>`);
    continue;
  }
  const { method, missing } = exportTree(gitDir, commit, folder);
  console.log(
    `exported ${folder}${method === "blobs" ? ` (file by file; ${missing.length} blobs missing from the repository: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""})` : ""}`,
  );
}
