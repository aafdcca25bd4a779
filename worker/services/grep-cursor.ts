/**
 * @module worker/services/grep-cursor
 *
 * The `next_cursor` of a grep page: where the next page resumes (match number, repo, path, lines
 * to skip) and a hash of the query it belongs to, so a cursor passed with another pattern, flag,
 * scope, ref, path or language is refused instead of resuming somewhere else (a tryout's page 2
 * of a grep at a tag continued on the default branch once the ref was dropped). Opaque to
 * callers: base64url of `[2, n, repo, path, skip, key]`.
 */
import { CodeSearchError } from "../../kernel/errors";
import type { GrepCursor } from "../search/grep/run";

/** The fields of a grep that decide which lines match and where (not `limit` or `offset`). */
export interface GrepQueryFields {
  pattern: string;
  regex: boolean;
  case_sensitive: boolean;
  whole_word: boolean;
  repo?: string;
  repos?: string[];
  ref?: string;
  path?: string;
  language?: string;
  include_tests: boolean;
}

/** 12 base64url characters (72 bits) of the SHA-256 of the query's fields: the cursor's binding. */
export async function grepQueryKey(q: GrepQueryFields): Promise<string> {
  const fields = [q.pattern, q.regex, q.case_sensitive, q.whole_word, q.repo ?? null, q.repos ? [...q.repos].sort() : null, q.ref ?? null];
  const text = JSON.stringify([...fields, q.path ?? null, q.language ?? null, q.include_tests]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return base64url(digest.slice(0, 9));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Encodes `c` for the query whose key is `key` (`grepQueryKey`). */
export function encodeGrepCursor(c: GrepCursor, key: string): string {
  return base64url(new TextEncoder().encode(JSON.stringify([2, c.n, c.repo, c.path, c.skip, key])));
}

/**
 * Decodes `encodeGrepCursor`'s output for the query `key`.
 * @throws CodeSearchError("invalid_input") for text that is no cursor, or a cursor of another query.
 */
export function decodeGrepCursor(s: string, key: string): GrepCursor {
  let v: unknown;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    v = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0))));
  } catch {
    v = null;
  }
  const ok =
    Array.isArray(v) &&
    v[0] === 2 &&
    Number.isInteger(v[1]) &&
    typeof v[2] === "string" &&
    typeof v[3] === "string" &&
    Number.isInteger(v[4]) &&
    typeof v[5] === "string" &&
    v[1] >= 0 &&
    v[4] >= 0;
  if (!ok) throw new CodeSearchError("invalid_input", "cursor: not a cursor from a previous grep page; pass next_cursor unchanged, or use offset.");
  const [, n, repo, path, skip, bound] = v as [2, number, string, string, number, string];
  if (bound !== key) {
    throw new CodeSearchError(
      "invalid_input",
      "cursor: this cursor belongs to another query; repeat the same query (pattern, regex, case_sensitive, whole_word, repo/repos, ref, path, language, include_tests) with it, or drop cursor to start over.",
    );
  }
  return { n, repo, path, skip };
}
