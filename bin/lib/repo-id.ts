/**
 * Repo ids for `npm start -- <source>`: `^[a-z0-9][a-z0-9._-]{0,63}$` (the API's rule).
 */
import { basename, resolve } from "node:path";

/** The API's repo id pattern. */
export const REPO_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A repo id from any name: lower-cased, other characters -> "-", trimmed to 64 chars. */
export function toRepoId(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 64)
    .replace(/[-.]+$/, "");
  return REPO_ID_PATTERN.test(id) ? id : "repo";
}

/** Repo id of a local folder: its name (`/home/me/My App` -> `my-app`). */
export function repoIdForFolder(dir: string): string {
  return toRepoId(basename(resolve(dir)));
}

/** Whether `source` is a git URL rather than a local path (https, ssh, git@host:path, file://). */
export function isGitUrl(source: string): boolean {
  return /^(https?|git|ssh|file):\/\//i.test(source) || /^[\w.-]+@[\w.-]+:/.test(source);
}
