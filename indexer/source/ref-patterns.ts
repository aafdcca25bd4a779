/**
 * @module indexer/source/ref-patterns
 *
 * The refs a repo tracks besides its default branch (docs/refs.md), as pure functions over the
 * remote's ref list: `normaliseRefPattern` turns what a user typed (`feature`, `v2.*`,
 * `refs/heads/release/*`) into a full ref name or glob as git would resolve it, and
 * `expandRefPatterns` lists the refs the patterns match, in order, up to the per-repo limit.
 *
 * `checkPatterns` applies both to what a user asked for and throws `invalid_input` naming each problem.
 *
 * Globs: `*` matches any run of characters except `/`, `**` any run including `/`, `?` one
 * character except `/` (git's `for-each-ref` patterns, where `*` stops at `/` too).
 */

import { CodeSearchError } from "../../kernel/errors";

/** One ref the remote advertises: full name and commit (tags peeled). */
export interface RemoteRefEntry {
  name: string;
  commit: string;
}

/** A tracked ref a pattern matched: full name, the pattern, and its commit on the remote. */
export interface ExpandedRef {
  name: string;
  pattern: string;
  commit: string;
}

/** Longest ref name or pattern accepted (bytes of a D1 key; git itself allows longer, nobody uses them). */
export const REF_PATTERN_MAX = 255;

/** Whether `p` is a glob (has `*` or `?`). */
export function isGlob(p: string): boolean {
  return /[*?]/.test(p);
}

/** The RegExp of a glob (see the module note); a name without wildcards matches itself only. */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Whether ref `name` is matched by `pattern` (a full name or a glob of full names). */
export function matchesPattern(pattern: string, name: string): boolean {
  return isGlob(pattern) ? globToRegExp(pattern).test(name) : pattern === name;
}

/**
 * Why `p` cannot be a ref name or pattern (git check-ref-format's rules that matter here), or
 * null when it can: no spaces or control characters, none of `~ ^ : \ [`, no `..`, `@{` or `//`,
 * no leading `-` or `/`, no trailing `/`, `.` or `.lock`.
 */
export function refPatternProblem(p: string): string | null {
  if (!p) return "is empty";
  if (p.length > REF_PATTERN_MAX) return `is longer than ${REF_PATTERN_MAX} characters`;
  if (/[\u0000-\u0020\u007f~^:\\[]/.test(p)) return "contains a space, a control character or one of ~ ^ : \\ [";
  if (p.includes("..") || p.includes("@{") || p.includes("//")) return 'contains "..", "@{" or "//"';
  if (/^[-/]/.test(p) || /(\/|\.|\.lock)$/.test(p)) return 'starts with "-" or "/", or ends with "/", "." or ".lock"';
  return null;
}

/**
 * A pattern as a full name without asking the remote (a connection's default patterns, applied to
 * repos not fetched yet): under `refs/` as it is, `heads/x` and `tags/x` under `refs/`, any other
 * short name a branch (`release/*` -> `refs/heads/release/*`). Throws `invalid_input` for a
 * malformed one.
 */
export function fullRefPattern(input: string): string {
  const p = input.trim();
  const problem = refPatternProblem(p);
  if (problem) throw new CodeSearchError("invalid_input", `refs: "${input}" ${problem}.`);
  if (p.startsWith("refs/")) return p;
  return p.startsWith("heads/") || p.startsWith("tags/") ? `refs/${p}` : `refs/heads/${p}`;
}

/** What `normaliseRefPattern` gives: a full pattern, or why the input cannot be one. */
export type NormalisedRef = { pattern: string } | { error: string };

/**
 * Resolves what a user typed to a full ref name or glob, as git resolves a short name: a name
 * under `refs/` stays as it is (a full glob may match nothing yet: tags to come); a short name
 * is `refs/heads/<name>` when such a branch exists (for a glob: when it matches a branch), else
 * `refs/tags/<name>` when such a tag exists; `heads/x` and `tags/x` are `refs/heads/x` and
 * `refs/tags/x`. A full name without wildcards must exist on the remote.
 */
export function normaliseRefPattern(input: string, remote: readonly RemoteRefEntry[]): NormalisedRef {
  const p = input.trim();
  const problem = refPatternProblem(p);
  if (problem) return { error: `"${input}" ${problem}` };
  const exists = (full: string) => remote.some((r) => matchesPattern(full, r.name));
  const full = p.startsWith("refs/") ? p : p.startsWith("heads/") || p.startsWith("tags/") ? `refs/${p}` : null;
  if (full) {
    // Only a glob may match nothing yet, so the advice for a ref to come is a glob.
    if (!isGlob(full) && !exists(full)) return { error: `"${input}": the remote has no ref ${full}; for one to come, write a glob such as ${full}*` };
    return { pattern: full };
  }
  for (const candidate of [`refs/heads/${p}`, `refs/tags/${p}`]) if (exists(candidate)) return { pattern: candidate };
  if (p === "HEAD") return { error: `"${input}" is the default branch, which is always tracked; list only the other branches and tags` };
  if (/^[0-9a-f]{7,40}$/i.test(p)) return { error: `"${input}" is a commit, not a branch or tag; name the branch or tag that points at it` };
  return {
    error: `"${input}" matches no branch or tag on the remote; check the name (git ls-remote lists them), or for refs to come write a glob such as refs/heads/${p}* or refs/tags/${p}*`,
  };
}

/**
 * The refs `patterns` (full names or globs, as normalised) match on the remote, without
 * `defaultName` (the default ref is tracked anyway), each once, in pattern order and by name
 * within a glob. `max` is how many may be tracked besides the default; the rest come back in
 * `overLimit` (names only).
 */
export function expandRefPatterns(
  patterns: readonly string[],
  remote: readonly RemoteRefEntry[],
  defaultName: string | null,
  max: number,
): { refs: ExpandedRef[]; overLimit: string[] } {
  const seen = new Set<string>(defaultName ? [defaultName] : []);
  const all: ExpandedRef[] = [];
  const sorted = [...remote].filter((r) => r.name !== "HEAD").sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const pattern of patterns) {
    for (const r of sorted) {
      if (seen.has(r.name) || !matchesPattern(pattern, r.name)) continue;
      seen.add(r.name);
      all.push({ name: r.name, pattern, commit: r.commit });
    }
  }
  return { refs: all.slice(0, Math.max(0, max)), overLimit: all.slice(Math.max(0, max)).map((r) => r.name) };
}

/**
 * Checks what a user asked to track against the remote: each entry normalised
 * (`normaliseRefPattern`), duplicates dropped, and the refs they match counted against the limit
 * (`maxRefs`, the default ref included: MAX_REFS_PER_REPO). Throws `invalid_input` naming every
 * entry that matches nothing or is malformed, or how far past the limit the patterns go.
 */
export function checkPatterns(inputs: readonly string[], remote: readonly RemoteRefEntry[], defaultName: string, maxRefs: number): string[] {
  const patterns: string[] = [];
  const problems: string[] = [];
  for (const input of inputs) {
    const n = normaliseRefPattern(input, remote);
    if ("error" in n) problems.push(n.error);
    else if (!patterns.includes(n.pattern)) patterns.push(n.pattern);
  }
  if (problems.length) throw new CodeSearchError("invalid_input", `refs: ${problems.join("; ")}.`);
  const { refs, overLimit } = expandRefPatterns(patterns, remote, defaultName, maxRefs - 1);
  if (overLimit.length) {
    throw new CodeSearchError(
      "invalid_input",
      `refs: these patterns match ${refs.length + overLimit.length} refs besides the default branch, and a repo tracks at most ${maxRefs} refs ` +
        `(MAX_REFS_PER_REPO, the default branch included); narrow them (e.g. refs/tags/v2.1.*). Past the limit: ${overLimit.slice(0, 5).join(", ")}${overLimit.length > 5 ? ", ..." : ""}.`,
    );
  }
  return patterns;
}
