/**
 * @module worker/mcp/links
 *
 * Browser-openable links to source lines for tool results (ChatGPT connectors show them as
 * citations): signed, expiring `/source/{repo}/{path}?exp=&sig=#L10-L20` links from
 * worker/auth/source-links.ts, so opening one needs no bearer header and reveals only that file;
 * each is bound to the caller's credential and stops working when that is revoked.
 */
import { signSourceLink } from "../auth";
import { loadAuthConfig } from "../auth/config";
import { linkCredential } from "../auth/link-credential";
import type { ToolContext } from "./tool";

/** A signed link to `path` (lines `startLine`-`endLine`, 1-based) valid for SOURCE_LINK_TTL_SECONDS. */
export async function sourceUrl(tc: ToolContext, repo: string, path: string, startLine?: number, endLine?: number): Promise<string> {
  const config = loadAuthConfig(tc.service.env);
  const credential = linkCredential(tc.service.caller);
  const link = await signSourceLink(config.signingSecret, tc.origin, { repo, path, startLine, endLine }, credential, Date.now(), config.sourceLinkTtlSeconds);
  return link.url;
}
