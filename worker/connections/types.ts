/**
 * @module worker/connections/types
 *
 * The shapes the code-host clients (github.ts, gitlab.ts) and the sync (sync.ts) share.
 */

/** Code hosts a connection can list. */
export const PROVIDERS = ["github", "gitlab"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** What kind of owner a connection lists: a GitHub organisation or user, a GitLab group or user. */
export type OwnerKind = "org" | "user" | "group";

/** One repository as the code host lists it. */
export interface UpstreamRepo {
  /** The host's numeric id, as a string: stable across renames and transfers. */
  id: string;
  /** `owner/name` (GitLab: `path_with_namespace`, which may hold subgroups). */
  fullName: string;
  /** Last path segment. */
  name: string;
  /** http(s) clone URL. */
  cloneUrl: string;
  fork: boolean;
  archived: boolean;
  /** Who the host lets read it: everyone (`public`), its members (`private`), or every user of the instance or enterprise (`internal`). */
  visibility: RepoHostVisibility;
}

/** A repository's visibility on its code host (GitHub `visibility`, GitLab `visibility`). */
export type RepoHostVisibility = "public" | "private" | "internal";

/** How to reach a code host's API. */
export interface CodeHostAccess {
  provider: Provider;
  /** API base: `https://api.github.com`, `https://ghe.example.com/api/v3`, or a GitLab instance `https://gitlab.com`. */
  baseUrl: string;
  token?: string;
  /** Loopback API hosts allowed (local mode only: ALLOW_LOOPBACK_GIT_URLS). */
  allowLoopback: boolean;
}

/** A lister of one owner's repositories. Throws CodeSearchError (see the implementations). */
export interface CodeHostClient {
  /** Whether `owner` is an organisation, a group or a user; throws `invalid_input` when the host knows no such owner. */
  resolveOwner(owner: string): Promise<OwnerKind>;
  /** Every repository of `owner`, all pages. */
  listRepos(owner: string, kind: OwnerKind): Promise<UpstreamRepo[]>;
  /**
   * Everyone the host lets read `repo`'s code, as principals (`github:<login>`, `gitlab:<username>`,
   * lower case), at most READERS_MAX. Throws CodeSearchError when the host will not say (the
   * token lacks the permission): the caller then hides the repo.
   */
  listReaders(repo: UpstreamRepo): Promise<string[]>;
}

/** Default API bases. */
export const DEFAULT_BASE_URL: Readonly<Record<Provider, string>> = { github: "https://api.github.com", gitlab: "https://gitlab.com" };

/** Most repositories one connection may list (20 pages of 100); more fails the sync rather than dropping some. */
export const CONNECTION_MAX_REPOS = 2000;
