/**
 * @module worker/auth/return-to
 *
 * Where a web sign-in sends the browser back to: the page it started from (the search page with
 * its query and filters in the URL), passed as `/login?next=<path>`. Only a path on this origin
 * is taken, so the parameter cannot turn /login into an open redirect; anything else is `/`.
 */

/** Query parameter (and form field) of /login that names the page to return to. */
export const RETURN_TO_PARAM = "next";
/** Longest return path kept, characters (a search URL with filters is far shorter). */
export const RETURN_TO_MAX_CHARS = 2048;

const BASE = "https://return-to.invalid";
/** Paths that would loop back into signing in or out. */
const SIGN_IN_PATHS = /^\/(?:login|logout|oauth\/|authorize)/;

/**
 * `raw` when it is a path on this origin (`/`, `/?q=x&repo=y`, `/repos#top`), normalised by the
 * URL parser; `/` for anything else: absolute or scheme-relative URLs (`https://evil`, `//evil`,
 * `/\evil`), backslashes, control characters, a path longer than RETURN_TO_MAX_CHARS, or the
 * sign-in pages themselves.
 */
export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== "string" || raw.length > RETURN_TO_MAX_CHARS) return "/";
  // Browsers read `\` as `/` and drop tabs and newlines, so `/\evil` or `/\t/evil` would leave the origin.
  if (!raw.startsWith("/") || raw.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(raw)) return "/";
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  return SIGN_IN_PATHS.test(url.pathname) || path.startsWith("//") ? "/" : path;
}
