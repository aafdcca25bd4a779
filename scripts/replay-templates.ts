/**
 * Which eval queries a change to the issue-template rule can move: replays `stripTemplateText`
 * (worker/search/issue-templates.ts) of this checkout and of another over every query of the
 * sets (SWE-bench Lite's problem statements, evals/sets/{reports,polyglot,unanswerable}), each
 * against the template files of its exported tree, and lists the queries whose text differs.
 * A query whose text is the same searches exactly as before, so only the listed ones need a run.
 *
 *   node scripts/replay-templates.ts --base-root DIR [--corpus-root /tmp/cc-corpora] [--bench-dir ../shared/bench]
 *
 * `--base-root` is the other checkout (`git worktree add DIR REV`). The template files are the
 * ones the product reads (`.github/ISSUE_TEMPLATE*`, `.github/PULL_REQUEST_TEMPLATE*`,
 * `.github/*\/PULL_REQUEST_TEMPLATE*`, root and `docs/` templates; Markdown, YAML and text), read
 * from the tree on disk rather than from the index: the same lines, split the same way.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { build } from "esbuild";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseCli } from "./lib/cli.ts";

const USAGE = `Usage: node scripts/replay-templates.ts --base-root DIR [--corpus-root /tmp/cc-corpora] [--bench-dir ../shared/bench]

Lists the eval queries whose issue-template-stripped text differs between this checkout and DIR.`;

const a = parseCli(USAGE, {
  "base-root": { type: "string" },
  "corpus-root": { type: "string", default: "/tmp/cc-corpora" },
  "bench-dir": { type: "string" },
});
if (!a["base-root"]) {
  console.error(`--base-root is required\n\n${USAGE}`);
  process.exit(2);
}
const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const benchDir = a["bench-dir"] ?? join(root, "..", "shared", "bench");

/** The template module's functions this replay calls. */
interface TemplateRule {
  mayFollowTemplate(text: string): boolean;
  templateLines(contents: readonly string[]): Set<string>;
  stripTemplateText(text: string, lines: ReadonlySet<string>): { text: string };
}

/** Bundles a checkout's issue-templates module (extensionless imports, as wrangler does) and imports it. */
async function loadRule(checkout: string, out: string): Promise<TemplateRule> {
  await build({
    entryPoints: [join(checkout, "worker/search/issue-templates.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "error",
  });
  return (await import(out)) as TemplateRule;
}

const TEMPLATE_NAME_RE = /^(issue_template|pull_request_template)/i;
const PR_TEMPLATE_RE = /^pull_request_template/i;
const TEMPLATE_EXT_RE = /\.(md|ya?ml|txt)$/i;

/** The template files of an exported tree, as the product's TEMPLATE_SQL selects them. */
function templateTexts(tree: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    }
  };
  const github = join(tree, ".github");
  if (existsSync(github)) {
    for (const name of readdirSync(github)) {
      const p = join(github, name);
      const dir = statSync(p).isDirectory();
      if (TEMPLATE_NAME_RE.test(name)) {
        if (dir) walk(p);
        else files.push(p);
      } else if (dir) for (const inner of readdirSync(p)) if (PR_TEMPLATE_RE.test(inner)) files.push(join(p, inner));
    }
  }
  for (const name of ["ISSUE_TEMPLATE.md", "PULL_REQUEST_TEMPLATE.md", "docs/ISSUE_TEMPLATE.md", "docs/PULL_REQUEST_TEMPLATE.md"]) {
    if (existsSync(join(tree, name))) files.push(join(tree, name));
  }
  return files.filter((p) => TEMPLATE_EXT_RE.test(p)).map((p) => readFileSync(p, "utf8"));
}

/** A query to replay: its set, id, text and the exported tree it searches. */
interface Replayed {
  set: string;
  id: string;
  text: string;
  tree: string;
}

const treeOf = (repo: string, commit: string) => join(a["corpus-root"]!, `${repo.split("/")[1]}-${commit.slice(0, 7)}`);
const queries: Replayed[] = readFileSync(join(benchDir, "swebench-lite-offline.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { instance_id: string; repo: string; base_commit: string; problem_statement: string })
  .map((d) => ({ set: "swebench", id: d.instance_id, text: d.problem_statement, tree: treeOf(d.repo, d.base_commit) }));
for (const dir of ["reports", "polyglot", "unanswerable"]) {
  const folder = join(root, "evals", "sets", dir);
  for (const file of readdirSync(folder).filter((f) => f.endsWith(".json"))) {
    const set = JSON.parse(readFileSync(join(folder, file), "utf8")) as { repo: string; commit: string; questions: { id: string; question: string }[] };
    for (const q of set.questions) queries.push({ set: `${dir}/${file}`, id: q.id, text: q.question, tree: treeOf(set.repo, set.commit) });
  }
}

const work = mkdtempSync(join(tmpdir(), "replay-templates-"));
try {
  const head = await loadRule(root, join(work, "head.mjs"));
  const base = await loadRule(resolve(a["base-root"]), join(work, "base.mjs"));
  // Each tree's template lines, as each rule normalizes them, read once per tree.
  const linesOf = new Map<string, { head: Set<string>; base: Set<string> }>();
  const counts = new Map<string, { n: number; changed: number; missing: number }>();
  for (const q of queries) {
    const group = q.set.split("/")[0];
    const c = counts.get(group) ?? { n: 0, changed: 0, missing: 0 };
    counts.set(group, c);
    c.n++;
    // A query neither rule may strip (fewer than 3 lines) searches as it is, whatever the tree holds.
    if (!head.mayFollowTemplate(q.text) && !base.mayFollowTemplate(q.text)) continue;
    if (!existsSync(q.tree)) {
      c.missing++;
      continue;
    }
    let lines = linesOf.get(q.tree);
    if (!lines) {
      const contents = templateTexts(q.tree);
      lines = { head: head.templateLines(contents), base: base.templateLines(contents) };
      linesOf.set(q.tree, lines);
    }
    const strip = (rule: TemplateRule, l: Set<string>) => (rule.mayFollowTemplate(q.text) ? rule.stripTemplateText(q.text, l).text : q.text);
    if (strip(head, lines.head) !== strip(base, lines.base)) {
      c.changed++;
      console.log(`changed  ${q.set} ${q.id}`);
    }
  }
  for (const [group, c] of counts)
    console.log(`${group}: ${c.changed} of ${c.n} queries change${c.missing ? ` (${c.missing} without an exported tree, not replayed)` : ""}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
