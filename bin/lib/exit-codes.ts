/**
 * Exit codes of the `codebase-copilot` CLI, one meaning each, so a script can tell "nothing
 * found" from "something broke" (as grep: 0 found, 1 nothing found, 2 and above trouble).
 * docs/cli.md lists the same table; the README names the codes.
 */

/** Process exit codes of the CLI. */
export const EXIT = {
  /** Success; for grep and search, something was found (and met `--min-confidence`). */
  ok: 0,
  /** Ran fine but found nothing: grep matched no line, search returned no result or fell below `--min-confidence`, ask refused or could not ground an answer, history or commits found no commit. */
  noMatch: 1,
  /** Usage: unknown option, missing argument, no token, or input the server refused (400). */
  usage: 2,
  /** The named repo, ref or token does not exist or is not visible (404). */
  notFound: 3,
  /** Authentication or permission: the token is invalid, expired, revoked (401) or lacks the scope (403). */
  auth: 4,
  /** Any other error: server error, rate limit, unreachable server, indexing failed (`index --wait`). */
  error: 5,
} as const;

/** One of the values of EXIT. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code for an API error with HTTP `status` (0: the server could not be reached). */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 422) return EXIT.usage;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  return EXIT.error;
}
