/**
 * @module worker/connections/filter
 *
 * Which listed repositories a connection keeps. Pure. Globs have picomatch's meaning and run on
 * RE2 (worker/search/path-glob.ts; a glob past its wildcard cap throws `invalid_input`); a pattern
 * with a `/` is matched against the full name (`acme/api-*`, GitLab `group/sub/*`), one without
 * against the last segment (`api-*`). Case-insensitive, as GitHub and GitLab names are.
 */
import { compileGlob } from "../search/path-glob";
import type { UpstreamRepo } from "./types";

/** A connection's filter. */
export interface RepoFilter {
  /** Keep only repos matching one of these ([] keeps every repo). */
  include: readonly string[];
  /** Drop repos matching one of these (wins over include). */
  exclude: readonly string[];
  /** Keep forks (default false: a fork mostly duplicates its parent's code). */
  forks: boolean;
  /** Keep archived repos (default false: read-only, usually dead code). */
  archived: boolean;
}

/** Why a listed repo is not kept, or null when it is. */
export type FilterReason = "excluded" | "fork" | "archived";

function matcher(patterns: readonly string[]): (repo: UpstreamRepo) => boolean {
  const tests = patterns.map((p) => {
    const { test } = compileGlob(p, { nocase: true, field: "include/exclude" });
    return (r: UpstreamRepo) => test(p.includes("/") ? r.fullName : r.name);
  });
  return (r) => tests.some((t) => t(r));
}

/** The filter as one function: listed repo -> why it is dropped, or null. */
export function compileFilter(f: RepoFilter): (repo: UpstreamRepo) => FilterReason | null {
  const included = f.include.length ? matcher(f.include) : () => true;
  const excluded = matcher(f.exclude);
  return (r) => {
    if (!included(r) || excluded(r)) return "excluded";
    if (r.fork && !f.forks) return "fork";
    if (r.archived && !f.archived) return "archived";
    return null;
  };
}
