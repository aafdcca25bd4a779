/**
 * @module indexer/source/git-errors
 *
 * The errors a git fetch or ls-remote answers with (indexer/source/git.ts, git-history.ts):
 * isomorphic-git, transport and network failures mapped to `CodeSearchError`s a user can act on,
 * with one neutral message for every host that cannot be read, so the API cannot probe ports.
 */
import { CodeSearchError } from "../../kernel/errors";
import { GitTransportError } from "./guarded-http";

/**
 * The one answer for a host that is unreachable, too slow, too large, or not a git server:
 * the same words whatever the cause (words true of each), so that the API tells nothing about
 * what listens where.
 */
export function noRepositoryAt(url: string): CodeSearchError {
  return new CodeSearchError(
    "source_unreachable",
    `No git repository could be read at ${url}: the host could not be reached, answered too slowly or too much, or is not a git smart-HTTP server. Check the URL (https://host/owner/repo.git) and that the server can reach it.`,
  );
}

/**
 * Maps isomorphic-git, transport and network errors to coded errors. Only a refused redirect
 * hop, a credentials request (a rejected token and a missing one get different messages:
 * `withToken` says whether credentials were sent), a repository the server says is not there
 * (HTTP 404/410) and a missing ref get their own message; the rest is `noRepositoryAt` (the
 * cause goes to the log only).
 */
export function gitError(err: unknown, url: string, withToken = false): CodeSearchError {
  if (err instanceof CodeSearchError) return err;
  if (err instanceof GitTransportError && err.kind === "refused_host") {
    return new CodeSearchError(
      "invalid_input",
      `${url} leads to ${err.detail} (directly or by a redirect), which this server does not fetch from; use the repository's public URL.`,
    );
  }
  if (err instanceof GitTransportError && err.kind === "interrupted") {
    // Only a server that had begun answering can cut an answer short, so this says no more
    // about what listens where than the answer's start did.
    return new CodeSearchError(
      "source_unreachable",
      `The transfer from ${url} was interrupted: ${err.detail}, so the repository arrived incomplete and nothing was indexed. Retry; if it keeps happening, check the network or a proxy between this server and the git host.`,
      { reason: "transfer_interrupted" },
    );
  }
  const e = err as { code?: string; data?: { statusCode?: number }; message?: string };
  const status = e.data?.statusCode;
  if (e.code === "HttpError" && (status === 401 || status === 403) && withToken) {
    return new CodeSearchError(
      "source_unreachable",
      `${url} rejected the token (HTTP ${status}): it may be mistyped, expired, revoked or lack read access, or the server needs another "username" or "authScheme": "bearer".`,
      { reason: "token_rejected" },
    );
  }
  if (e.code === "HttpError" && (status === 401 || status === 403)) {
    return new CodeSearchError(
      "source_unreachable",
      `${url} asked for credentials (HTTP ${status}) and none were given; pass a "token" that can read the repository.`,
      { reason: "token_required" },
    );
  }
  if (e.code === "HttpError" && (status === 404 || status === 410)) {
    // An HTTP answer, like 401/403 above: it tells no more about what listens where than they do.
    return new CodeSearchError(
      "source_unreachable",
      `${url} answered HTTP ${status}: there is no repository at this URL. Check the owner and name (https://host/owner/repo.git); a host that hides private repositories answers so too: then pass a "token" that can read it.`,
      { reason: "not_found" },
    );
  }
  if (e.code === "NotFoundError") {
    return new CodeSearchError("ref_not_found", `${e.message ?? "Ref not found"} at ${url}.`);
  }
  console.warn(`git remote ${url} failed: ${err instanceof GitTransportError ? err.kind : (e.code ?? "network")}`);
  return noRepositoryAt(url);
}
