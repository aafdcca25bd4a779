/**
 * @module evals/lib/sets
 *
 * Parses the evaluation sets into the harness's shapes: retrieval sets (the project's
 * `evals/sets/fixture.json` and `evals/sets/polyglot/*.json`, the public `hono-50.json`) and
 * SWE-bench Lite lines, and picks what a run scores. Throws naming the question and field that is
 * malformed.
 */
import type { Category, Question, RetrievalSet, SwebenchInstance } from "./types.ts";

const CATEGORIES: ReadonlySet<string> = new Set(["semantic", "lexical", "report", "unanswerable"]);

/** Parses a retrieval set (`{repo, commit?, language?, questions: [{id, category, question, gold}]}`). */
export function parseRetrievalSet(name: string, raw: unknown): RetrievalSet {
  const obj = raw as { repo?: unknown; commit?: unknown; language?: unknown; questions?: unknown };
  if (!obj || !Array.isArray(obj.questions)) throw new TypeError(`${name}: expected an object with a "questions" array`);
  const questions: Question[] = obj.questions.map((q: Record<string, unknown>, i: number) => {
    const id = typeof q.id === "string" ? q.id : `#${i + 1}`;
    if (typeof q.question !== "string" || !q.question) throw new TypeError(`${name} ${id}: "question" must be a non-empty string`);
    if (typeof q.category !== "string" || !CATEGORIES.has(q.category))
      throw new TypeError(`${name} ${id}: "category" must be semantic, lexical, report or unanswerable`);
    const gold = Array.isArray(q.gold) ? q.gold : [];
    gold.forEach((g: Record<string, unknown>, j: number) => {
      if (typeof g.file !== "string" || !Number.isInteger(g.startLine) || !Number.isInteger(g.endLine)) {
        throw new TypeError(`${name} ${id}: gold[${j}] needs file, startLine and endLine`);
      }
    });
    if ((q.category === "unanswerable") !== (gold.length === 0)) throw new TypeError(`${name} ${id}: only unanswerable questions have an empty gold`);
    const out = { id, category: q.category as Category, question: q.question, gold } as Question;
    if (typeof q.lang === "string") out.lang = q.lang;
    if (typeof q.english === "string") out.english = q.english;
    return out;
  });
  const set: RetrievalSet = { name, repo: String(obj.repo ?? name), commit: typeof obj.commit === "string" ? obj.commit : undefined, questions };
  if (typeof obj.language === "string") set.language = obj.language;
  return set;
}

/** One repository of a multi-repository run (polyglot): its set, the repo id it is indexed as, its tree. */
export interface SetRun {
  set: RetrievalSet;
  /** Repo id in the product, `eval-poly-<set name>`. */
  repoId: string;
  /** Exported tree, `<corpusRoot>/<name>-<short commit>` (evals/export-corpora.ts). */
  corpus: string;
}

/**
 * Picks the sets to score: all of them when `only` is empty, otherwise those whose name (`gin`)
 * or repository (`gin-gonic/gin`) is listed, in the order of `sets`. Throws naming an entry that
 * matches no set, or a set without a pinned commit (its tree could not be found).
 */
export function planSetRuns(sets: RetrievalSet[], corpusRoot: string, only: string[] = []): SetRun[] {
  const unknown = only.filter((o) => !sets.some((s) => s.name === o || s.repo === o));
  if (unknown.length) throw new Error(`no set named ${unknown.join(", ")} (have ${sets.map((s) => s.name).join(", ")})`);
  return sets
    .filter((s) => only.length === 0 || only.includes(s.name) || only.includes(s.repo))
    .map((set) => {
      if (!set.commit) throw new TypeError(`${set.name}: "commit" is required to find its exported tree`);
      return { set, repoId: `eval-poly-${set.name}`, corpus: `${corpusRoot.replace(/\/+$/, "")}/${corpusFolderName(set.repo, set.commit)}` };
    });
}

/** Parses `swebench-lite-offline.jsonl` text. */
export function parseSwebench(text: string): SwebenchInstance[] {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((line, i) => {
      const d = JSON.parse(line) as SwebenchInstance;
      if (!d.instance_id || !d.repo || !d.base_commit || typeof d.problem_statement !== "string" || !Array.isArray(d.gold_files)) {
        throw new TypeError(`swebench line ${i + 1}: needs instance_id, repo, base_commit, problem_statement, gold_files`);
      }
      return d;
    });
}

/**
 * Picks SWE-bench instances: those of `repos` (all repos when empty), at most `perRepo` each,
 * in file order. Deterministic, so a run can be reproduced from its command line.
 */
export function pickInstances(all: SwebenchInstance[], repos: string[], perRepo: number): SwebenchInstance[] {
  const count = new Map<string, number>();
  return all.filter((d) => {
    if (repos.length && !repos.includes(d.repo)) return false;
    const n = count.get(d.repo) ?? 0;
    if (n >= perRepo) return false;
    count.set(d.repo, n + 1);
    return true;
  });
}

/** Picks the instances named by `ids`, in file order; throws naming any id the set lacks. */
export function pickInstanceIds(all: SwebenchInstance[], ids: string[]): SwebenchInstance[] {
  const known = new Set(all.map((d) => d.instance_id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw new Error(`unknown SWE-bench instance ids: ${missing.join(", ")}`);
  const wanted = new Set(ids);
  return all.filter((d) => wanted.has(d.instance_id));
}

/** Folder name of an exported corpus: `<name>-<first 7 of commit>`, e.g. `requests-a0df2cb`. */
export function corpusFolderName(repo: string, commit: string): string {
  return `${repo.slice(repo.indexOf("/") + 1)}-${commit.slice(0, 7)}`;
}
