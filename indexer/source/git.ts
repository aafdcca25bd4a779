/**
 * @module indexer/source/git
 *
 * Git source over smart HTTP with isomorphic-git, no disk: `checkRemote` lists the remote's
 * refs (an `ls-remote`) and resolves a ref to a commit; `fetchSnapshot` does a depth-1
 * (single ref, no tags, no checkout) fetch into an in-memory file system and lists the commit's
 * tree recursively. Blobs are read from the fetched packfile on demand. Commit history is a
 * separate fetch (git-history.ts, through `fetchObjects`), so that it never delays or fails
 * the snapshot.
 *
 * Every request goes through `createGuardedHttp` (guarded-http.ts): hosts are checked against
 * the SSRF policy (host-guard.ts) on every redirect hop, with connect / total timeouts and a cap
 * on the bytes read.
 *
 * Errors are `CodeSearchError`s a user can act on: `invalid_input` (URL, or a destination the
 * policy refuses), `source_unreachable` (auth; and, with one neutral message, every host that
 * is unreachable, slow, or not a git server, so the API cannot be used to probe ports; a
 * transfer cut off mid-answer has its own message, `reason: "transfer_interrupted"`),
 * `ref_not_found`.
 */
import git from "isomorphic-git";
import { CodeSearchError } from "../../kernel/errors";
import { gitError } from "./git-errors";
import { createGuardedHttp, DEFAULT_TRANSPORT_LIMITS, type TransportLimits } from "./guarded-http";
import { classifyHost, describeHostClass, isFetchableUrl, type HostPolicy } from "./host-guard";
import type { HistoryDepth } from "../../kernel/history-depth";
import { MemoryFs } from "./memory-fs";
import type { SourceEntry, SourceSnapshot } from "./snapshot";

/** How a token is sent: HTTP basic auth (`username:token`), or `Authorization: Bearer <token>`. */
export type GitAuthScheme = "basic" | "bearer";

/** Basic-auth user name when none is given: GitHub, GitLab and Bitbucket accept any user name with a token. */
export const DEFAULT_GIT_USERNAME = "x-access-token";

/** Where to fetch from, and the credentials (sent with every request, not only after a 401). */
export interface GitSourceOptions {
  /** http(s) URL, without credentials (see `parseGitUrl`). */
  url: string;
  /** Branch, tag, full ref name, or commit SHA. Default: the remote's HEAD. */
  ref?: string;
  token?: string;
  /** Basic-auth user name (default DEFAULT_GIT_USERNAME); servers such as Gitea or Bitbucket Server need the real one. */
  username?: string;
  /** Default "basic". "bearer" for hosts that take only bearer tokens (e.g. Azure DevOps PATs via header, some proxies). */
  authScheme?: GitAuthScheme;
  /** Outbound limits; `allowLoopback` comes from config (`ALLOW_LOOPBACK_GIT_URLS`), the rest default to DEFAULT_TRANSPORT_LIMITS. */
  limits: HostPolicy & Partial<TransportLimits>;
  /** Commit history to record (`HISTORY_DEPTH`, fetched by git-history.ts); absent or null: none. */
  history?: HistoryDepth | null;
}

/** A ref resolved on the remote. */
export interface ResolvedRef {
  /** Full ref name (`refs/heads/main`), or the SHA itself when a commit SHA was asked for. */
  ref: string;
  /** Commit SHA (tags are peeled). */
  commit: string;
}

const SHA_RE = /^[0-9a-f]{40}$/;

/**
 * Checks a user-supplied git URL: http or https only, no fragment, and a host the policy allows
 * (host-guard.ts: no loopback unless `policy.allowLoopback`, no private, link-local, CGNAT,
 * unique-local, unspecified, multicast or broadcast address, in any spelling). Credentials in
 * the URL are moved out so that the stored URL never holds a secret: `https://alice:pw@host/r.git`
 * gives username `alice` and token `pw`; `https://TOKEN@host/r.git` gives token `TOKEN` (GitHub's
 * form). Throws `invalid_input` naming what is wrong.
 */
export function parseGitUrl(raw: string, policy: HostPolicy): { url: string; token?: string; username?: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new CodeSearchError("invalid_input", `"url" is not a valid URL: "${raw}". Use an http(s) git URL such as https://github.com/owner/repo.git.`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new CodeSearchError(
      "invalid_input",
      `"url" must use http or https (got "${u.protocol}"); for a local folder upload an archive to POST /api/repos/{id}/archive.`,
    );
  }
  if (!isFetchableUrl(u, policy)) {
    throw new CodeSearchError(
      "invalid_input",
      `"url" points at ${u.host}, ${describeHostClass(classifyHost(u.hostname))}; this server only fetches from public hosts. Use the repository's public URL, or upload the folder as an archive (POST /api/repos/{id}/archive).`,
    );
  }
  const token = u.password || u.username ? decodeURIComponent(u.password || u.username) : undefined;
  const username = u.password && u.username ? decodeURIComponent(u.username) : undefined;
  u.username = "";
  u.password = "";
  u.hash = "";
  return { url: u.toString(), ...(token ? { token } : {}), ...(username ? { username } : {}) };
}

/** The Authorization header for the options' credentials, or none. */
export function authHeaders(opts: Pick<GitSourceOptions, "token" | "username" | "authScheme">): Record<string, string> {
  if (!opts.token) return {};
  if (opts.authScheme === "bearer") return { Authorization: `Bearer ${opts.token}` };
  const pair = new TextEncoder().encode(`${opts.username || DEFAULT_GIT_USERNAME}:${opts.token}`);
  return { Authorization: `Basic ${btoa(String.fromCharCode(...pair))}` };
}

export { gitError, noRepositoryAt } from "./git-errors";

function httpFor(opts: GitSourceOptions) {
  return createGuardedHttp({ ...DEFAULT_TRANSPORT_LIMITS, ...opts.limits });
}

/** The remote's refs as an ls-remote lists them: every advertised ref with its commit (tags peeled), and what HEAD points at. */
export interface RemoteListing {
  refs: { name: string; commit: string }[];
  /** HEAD's target (`refs/heads/main`), or null when the remote does not say (or has no HEAD). */
  head: string | null;
  /** HEAD's commit, or null for an empty repository. */
  headCommit: string | null;
}

/** Lists the remote's refs (an `ls-remote`: one `info/refs` request). Throws coded errors (see module note). */
export async function listRemoteRefs(opts: GitSourceOptions): Promise<RemoteListing> {
  let refs: { ref: string; oid: string; target?: string; peeled?: string }[];
  try {
    const info = await git.getRemoteInfo2({ http: httpFor(opts), url: opts.url, headers: authHeaders(opts), protocolVersion: 1 });
    refs = info.refs ?? [];
  } catch (err) {
    throw gitError(err, opts.url, !!opts.token);
  }
  const head = refs.find((r) => r.ref === "HEAD");
  return {
    refs: refs.filter((r) => r.ref !== "HEAD").map((r) => ({ name: r.ref, commit: r.peeled ?? r.oid })),
    head: head?.target ?? null,
    headCommit: head ? (head.peeled ?? head.oid) : null,
  };
}

/**
 * Resolves `wanted` (default HEAD) in a listing, as `checkRemote` does. A commit SHA is accepted
 * when it is the tip of an advertised branch or tag. Throws `ref_not_found`.
 */
export function resolveRef(listing: RemoteListing, wanted: string | undefined, url: string): ResolvedRef {
  const want = wanted?.trim() || "HEAD";
  if (want === "HEAD") {
    if (listing.headCommit) return { ref: listing.head ?? "HEAD", commit: listing.headCommit };
    throw new CodeSearchError("ref_not_found", `${url} has no HEAD (an empty repository?); pass a "ref".`);
  }
  const candidates = want.startsWith("refs/") ? [want] : [`refs/heads/${want}`, `refs/tags/${want}`];
  for (const name of candidates) {
    const hit = listing.refs.find((r) => r.name === name);
    if (hit) return { ref: name, commit: hit.commit };
  }
  if (SHA_RE.test(want)) {
    // isomorphic-git fetches advertised refs only, so a commit SHA must be the tip of one.
    const tip = listing.refs.find((r) => r.commit === want);
    if (tip) return { ref: tip.name, commit: want };
    throw new CodeSearchError("ref_not_found", `Commit ${want} is not the tip of a branch or tag at ${url}; pass a branch or tag name.`);
  }
  const known = listing.refs
    .filter((r) => r.name.startsWith("refs/heads/"))
    .map((r) => r.name.slice(11))
    .slice(0, 10);
  throw new CodeSearchError("ref_not_found", `Ref "${want}" does not exist at ${url}. Branches: ${known.join(", ") || "(none)"}.`);
}

/**
 * Lists the remote's refs and resolves `ref` (default HEAD) to a commit: an `ls-remote`, quick
 * enough to run while answering the registering request. A commit SHA is accepted when it is
 * the tip of an advertised branch or tag.
 */
export async function checkRemote(opts: GitSourceOptions): Promise<ResolvedRef> {
  return resolveRef(await listRemoteRefs(opts), opts.ref, opts.url);
}

async function listTree(fs: MemoryFs, cache: object, treeOid: string, prefix: string, out: SourceEntry[]): Promise<void> {
  const { tree } = await git.readTree({ fs, gitdir: "/", oid: treeOid, cache });
  for (const e of tree) {
    const path = prefix + e.path;
    if (e.type === "tree") await listTree(fs, cache, e.oid, `${path}/`, out);
    else out.push({ path, mode: e.mode, blobSha: e.oid });
  }
}

/**
 * Depth-1 fetches one ref into memory and lists its tree. Memory: the packfile of one commit
 * (compressed) plus what `readBlob` returns. `resolved`: the ref as an ls-remote just resolved
 * it (the coordinator has one), which saves a second ls-remote round trip. Throws coded errors
 * (see module note).
 */
export async function fetchSnapshot(opts: GitSourceOptions, resolved?: ResolvedRef): Promise<SourceSnapshot> {
  resolved ??= await checkRemote(opts);
  try {
    const { fs, cache } = await fetchObjects(opts, resolved, { depth: 1 });
    const { commit } = await git.readCommit({ fs, gitdir: "/", oid: resolved.commit, cache });
    const entries: SourceEntry[] = [];
    await listTree(fs, cache, commit.tree, "", entries);
    return {
      commit: resolved.commit,
      entries,
      tracked: true,
      async readBlob(blobSha: string) {
        const { blob } = await git.readBlob({ fs, gitdir: "/", oid: blobSha, cache });
        return blob;
      },
    };
  } catch (err) {
    throw gitError(err, opts.url, !!opts.token);
  }
}

/** How deep `fetchObjects` goes: a number of commits along every path, or back to a date (git's `deepen-since`). */
export type FetchDepth = { depth: number } | { since: Date };

/**
 * Fetches `resolved` into a new in-memory repository (one packfile and its index) and returns
 * it with the isomorphic-git `cache` every later read must share (it holds the parsed pack
 * index; without it each read parses the index again). Errors are thrown as isomorphic-git and
 * the transport raise them; callers map them (`gitError`).
 */
export async function fetchObjects(opts: GitSourceOptions, resolved: ResolvedRef, depth: FetchDepth): Promise<{ fs: MemoryFs; cache: object }> {
  const fs = new MemoryFs();
  const cache = {};
  await git.init({ fs, gitdir: "/", bare: true });
  // A refspec covering tags too, so that a tag ref can be fetched like a branch.
  await git.setConfig({ fs, gitdir: "/", path: "remote.origin.url", value: opts.url });
  await git.setConfig({ fs, gitdir: "/", path: "remote.origin.fetch", value: "+refs/*:refs/remotes/origin/*" });
  await git.fetch({
    fs,
    http: httpFor(opts),
    gitdir: "/",
    remote: "origin",
    ref: resolved.ref,
    remoteRef: resolved.ref,
    singleBranch: true,
    ...depth,
    tags: false,
    headers: authHeaders(opts),
    cache,
  });
  return { fs, cache };
}
