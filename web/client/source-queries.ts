/**
 * The API URLs the source view (source.ts) asks about the file it shows: the last commit of a
 * line range (`/history`), and a clicked symbol's definitions and references. Each carries the
 * page's ref (the `?ref=` of its signed link, issue #49), so a page showing a branch or tag asks
 * about that snapshot's lines, not the default branch's: without it a tag's lines 121-125 were
 * blamed and looked up as the default branch's lines 121-125.
 */

/** `&ref=<ref>` when the page shows a ref, else "" (the default snapshot). */
function refParam(ref: string): string {
  return ref ? `&ref=${encodeURIComponent(ref)}` : "";
}

/** `GET /api/repos/{repo}/history` for lines `start..end` of `path` at `ref` (without `limit`: the page's link to the whole history). */
export function historyUrl(repo: string, path: string, range: { start: number; end: number }, ref: string): string {
  return `/api/repos/${encodeURIComponent(repo)}/history?path=${encodeURIComponent(path)}&start=${range.start}&end=${range.end}${refParam(ref)}`;
}

/** `GET /api/repos/{repo}/symbols` for `name` at `ref`, at most 20 definitions. */
export function symbolsUrl(repo: string, name: string, ref: string): string {
  return `/api/repos/${encodeURIComponent(repo)}/symbols?name=${encodeURIComponent(name)}&limit=20${refParam(ref)}`;
}

/** `GET /api/repos/{repo}/references` for `name` at `ref`, at most 30 references. */
export function referencesUrl(repo: string, name: string, ref: string): string {
  return `/api/repos/${encodeURIComponent(repo)}/references?symbol=${encodeURIComponent(name)}&limit=30${refParam(ref)}`;
}
