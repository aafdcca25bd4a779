/**
 * @module worker/mcp/snapshot-label
 *
 * How the text renderings of the MCP tools name the snapshot a result was read from (issue #49:
 * every result names its ref and commit): `main@0123456789ab`, or `commit 0123456789ab` for an
 * archive upload (no refs).
 */
import { shortRefName } from "../services/refs";

/** `main@0123456789ab` (short ref name, 12 hex of the commit); `commit 0123456789ab` without a ref. */
export function atRef(ref: string | null | undefined, commit: string | undefined): string {
  const sha = (commit ?? "").slice(0, 12);
  return ref ? `${shortRefName(ref)}@${sha}` : `commit ${sha}`;
}

/** One line naming each repo's snapshot among `items` (first seen order): `read at: hono main@…, docs commit …`; "" for none. */
export function snapshotsLine(items: readonly { repo: string; ref?: string | null; commit?: string }[]): string {
  const seen = new Map<string, string>();
  for (const i of items) if (!seen.has(i.repo) && i.commit) seen.set(i.repo, atRef(i.ref, i.commit));
  return seen.size ? `read at: ${[...seen].map(([repo, at]) => `${repo} ${at}`).join(", ")}` : "";
}

/** `line` on a new line, or "" when it is empty. */
export function withLine(line: string): string {
  return line ? `\n${line}` : "";
}
