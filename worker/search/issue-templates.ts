/**
 * @module worker/search/issue-templates
 *
 * A pasted bug report is usually written in the repo's own issue template: its headings ("What
 * happened", "Minimal Complete Verifiable Example", "What version of Hono are you using?"), its
 * environment lines ("Python version:", "Output of xr.show_versions()") and its instructions come
 * from `.github/ISSUE_TEMPLATE/*` (Markdown or YAML issue forms) or a pull-request template, not
 * from the reporter. Those words say nothing about where the bug is, yet they match the template
 * itself, the contributing guide and the helper the template asks to run. So before the query is
 * parsed, the lines of the report that the searched snapshot's templates supplied are removed:
 * a line equal to a template line (compared as lowercase word sequences, markup, HTML tags and
 * YAML keys ignored) goes, and a line that starts with one of at least two words keeps only what
 * the reporter wrote after it (`- Python version: 3.12` keeps `3.12`). A ticked task-list box
 * reads as the template's empty one, and a line that holds a whole template line of at least
 * four words, making up at least half of it (an older wording of the template), goes whole: the
 * at most half of it that the reporter added (an environment, a version) goes with it. The
 * templates are read from the index (one D1 statement per snapshot, cached per isolate by repo
 * and commit), so each repo's own template is what counts and nothing is keyed to any report's
 * text.
 */
import { REPORT_MIN_LINES, TEMPLATE_MIN_CONTAINED_WORDS, TEMPLATE_MIN_PREFIX_WORDS, TEMPLATE_REWORDED_RATIO } from "./ranking/weights";
import { CHUNK_CONTENT, CHUNK_FILE_JOIN, SNAPSHOT_JOIN } from "./snapshot-sql";
import { dbOf, type TargetDb } from "./shard-targets";

/**
 * A task-list item's box at the start of a line (`- [x] `, `* [X] `, `1. [ ] `): a reporter ticks
 * the template's boxes, and the `x` must not make the line differ from the template's `[ ]`.
 */
const CHECKBOX_RE = /^(\s*(?:[-*+]|\d+[.)])\s+)\[[ xX]\]/;

/** `line` with a ticked task-list box cleared (CHECKBOX_RE), the same length. */
function withoutCheckbox(line: string): string {
  return line.replace(CHECKBOX_RE, (m, lead: string) => lead + " ".repeat(m.length - lead.length));
}

/** Words of a line: task-list box and HTML tags dropped, lowercase letter/digit/underscore runs. */
function words(line: string): string[] {
  return (
    withoutCheckbox(line)
      .replace(/<[^>\n]*>/g, " ")
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu) ?? []
  );
}

/**
 * Whether the words `w` of a report line are mostly a template line: a whole template line of
 * at least TEMPLATE_MIN_CONTAINED_WORDS words (`long`, split into words) occurs in them as a run
 * of at least half the line's words.
 * A template is reworded over the years ("Include a detailed description of the bug" became "a
 * detailed description of the bug"), and a reporter copies whichever one was current.
 */
function mostlyTemplate(w: string[], long: readonly string[][]): boolean {
  const joined = ` ${w.join(" ")} `;
  const has = w.length >= TEMPLATE_MIN_CONTAINED_WORDS ? new Set(w) : null;
  return long.some((t) => (2 * t.length >= w.length && joined.includes(` ${t.join(" ")} `)) || (has !== null && reworded(w, has, t)));
}

/**
 * Whether report words `w` (their set `has`) are template line `t` reworded: at least TEMPLATE_MIN_CONTAINED_WORDS
 * words in common, in order, and a similarity 2M / (|w| + |t|) of at least TEMPLATE_REWORDED_RATIO
 * (M the longest common subsequence of words, as `difflib.SequenceMatcher.ratio()`). Older
 * wordings swap a word or two ("of" for "from") as well as dropping some.
 */
function reworded(w: readonly string[], has: ReadonlySet<string>, t: readonly string[]): boolean {
  const total = w.length + t.length;
  // M is at most the shorter line, and at most the template words the line has: most pairs
  // are rejected before the O(|w| |t|) table.
  if (2 * Math.min(w.length, t.length) < TEMPLATE_REWORDED_RATIO * total) return false;
  let shared = 0;
  for (const word of t) if (has.has(word)) shared++;
  if (shared < TEMPLATE_MIN_CONTAINED_WORDS || 2 * shared < TEMPLATE_REWORDED_RATIO * total) return false;
  // Longest common subsequence, one row at a time (O(|w| |t|) time, O(|t|) space).
  let prev = new Array<number>(t.length + 1).fill(0);
  for (const word of w) {
    const row = new Array<number>(t.length + 1).fill(0);
    for (let j = 0; j < t.length; j++) row[j + 1] = word === t[j] ? prev[j] + 1 : Math.max(prev[j + 1], row[j]);
    prev = row;
  }
  const m = prev[t.length];
  return m >= TEMPLATE_MIN_CONTAINED_WORDS && 2 * m >= TEMPLATE_REWORDED_RATIO * total;
}

/** YAML issue-form keys whose values are shown to the reporter (and so copied into the issue). */
const YAML_KEY_RE = /^\s*(?:-\s*)?(?:label|description|placeholder|value|name|about|title):\s*[|>]?[-+]?\s*/i;

/**
 * The normalized lines of template texts (each a space-joined word sequence; lines without words
 * are left out). YAML keys of issue forms are dropped so `label: What happened?` gives `what happened`.
 */
export function templateLines(contents: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const content of contents) {
    for (const raw of content.split("\n")) {
      const w = words(raw.replace(YAML_KEY_RE, ""));
      if (w.length) out.add(w.join(" "));
    }
  }
  return out;
}

/**
 * Removes from `text` the lines (or line beginnings of at least TEMPLATE_MIN_PREFIX_WORDS words) that
 * equal a template line, and the lines mostly made of one (mostlyTemplate). Returns the remaining
 * text and how many lines were removed or cut.
 * Lines without words (blank, punctuation, fences) are kept as they are.
 */
export function stripTemplateText(text: string, lines: ReadonlySet<string>): { text: string; removed: number } {
  if (!lines.size) return { text, removed: 0 };
  const long = [...lines].map((l) => l.split(" ")).filter((t) => t.length >= TEMPLATE_MIN_CONTAINED_WORDS);
  let removed = 0;
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    const w = words(line);
    if (!w.length) {
      kept.push(line);
      continue;
    }
    if (lines.has(w.join(" "))) {
      removed++;
      continue;
    }
    let cut = 0;
    for (let n = w.length - 1; n >= TEMPLATE_MIN_PREFIX_WORDS; n--) {
      if (lines.has(w.slice(0, n).join(" "))) {
        cut = n;
        break;
      }
    }
    if (!cut) {
      if (mostlyTemplate(w, long)) removed++;
      else kept.push(line);
      continue;
    }
    // Cut the original line after its cut-th word (task-list box and HTML tags blanked to the
    // same length, as words() drops them).
    const blanked = withoutCheckbox(line).replace(/<[^>\n]*>/g, (m) => " ".repeat(m.length));
    const re = /[\p{L}\p{N}_]+/gu;
    for (let i = 0; i < cut; i++) re.exec(blanked);
    const end = re.lastIndex;
    removed++;
    kept.push(line.slice(end));
  }
  return { text: kept.join("\n"), removed };
}

/** Whether a query has the lines of a report (REPORT_MIN_LINES non-blank), so a template may have shaped it. */
export function mayFollowTemplate(text: string): boolean {
  let n = 0;
  for (const line of text.split("\n")) if (line.trim() && ++n >= REPORT_MIN_LINES) return true;
  return false;
}

/** Template files of a snapshot: GitHub's issue and pull-request templates (any case). */
const TEMPLATE_SQL =
  `SELECT ${CHUNK_CONTENT} AS content FROM chunks c ` +
  SNAPSHOT_JOIN +
  ` ${CHUNK_FILE_JOIN}` +
  " WHERE c.repo = ? AND (lower(c.path) GLOB '.github/issue_template*' OR lower(c.path) GLOB '.github/pull_request_template*'" +
  " OR lower(c.path) GLOB '.github/*/pull_request_template*' OR lower(c.path) IN ('issue_template.md', 'pull_request_template.md', 'docs/issue_template.md'," +
  " 'docs/pull_request_template.md')) AND c.language IN ('markdown', 'yaml', 'text') LIMIT 200";

/** Template lines per repo and commit, per isolate (a snapshot's templates never change). */
const cache = new Map<string, Set<string>>();
const CACHE_MAX_ENTRIES = 64;

/** What `issueTemplateLines` reads of a target. */
export interface TemplateTarget {
  id: string;
  commit: string;
}

/**
 * The normalized template lines of the searched snapshots (union). One D1 statement per snapshot
 * not yet cached; a failing read counts as no templates (the search goes on unchanged).
 */
export async function issueTemplateLines(db: TargetDb<TemplateTarget>, targets: readonly TemplateTarget[]): Promise<Set<string>> {
  const out = new Set<string>();
  await Promise.all(
    targets.map(async (t) => {
      const key = `${t.id}\0${t.commit}`;
      let lines = cache.get(key);
      if (!lines) {
        try {
          const { results } = await dbOf(db, t).prepare(TEMPLATE_SQL).bind(t.commit, t.id).all<{ content: string }>();
          lines = templateLines(results.map((r) => r.content));
        } catch {
          return;
        }
        if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
        cache.set(key, lines);
      }
      for (const l of lines) out.add(l);
    }),
  );
  return out;
}
