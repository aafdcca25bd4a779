/**
 * Test helpers that drive the loopback git server's control routes (test/git-server.ts): a
 * fresh upstream per test, pushes, held requests and the request log.
 */
import { expect, inject } from "vitest";

type Auth = { username: string; password: string } | { bearer: string };

async function control(path: string, body?: unknown, method = "POST"): Promise<any> {
  const res = await fetch(`${inject("gitServerUrl")}/_control${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} /_control${path}`).toBe(200);
  return res.json();
}

/** An upstream repo of its own: a copy of `fixture.git` (or `<from>.git`) named `name`, optionally behind credentials. */
export async function createUpstream(name: string, auth?: Auth, from?: string): Promise<{ url: string; head: string }> {
  const r = await control("/repos", { name, auth, from });
  return { url: `${inject("gitServerUrl")}/${name}.git`, head: r.head };
}

/** Commits `files` (path -> text) on `branch` of the upstream, as a push would (`message`: its subject); returns the commit SHA. */
export async function pushCommit(name: string, files: Record<string, string>, branch = "main", message?: string): Promise<string> {
  return (await control(`/repos/${name}/commit`, { files, branch, message })).commit;
}

/** Holds the upstream's git requests (or only its pack fetches) until `release`. */
export async function hold(name: string, only?: "upload-pack"): Promise<void> {
  await control(`/repos/${name}/hold`, only ? { only } : {});
}

/** Serves the held requests and stops holding. */
export async function release(name: string): Promise<void> {
  await control(`/repos/${name}/release`, {});
}

/** The git requests the upstream served so far. */
export async function requestLog(name: string): Promise<{ path: string; kind: "info/refs" | "upload-pack" | "other" }[]> {
  return (await control(`/repos/${name}/log`, undefined, "GET")).requests;
}

/** Changes the credentials the upstream asks for (a revoked token: other credentials). */
export async function setUpstreamAuth(name: string, auth?: Auth): Promise<void> {
  await control(`/repos/${name}/auth`, { auth });
}

/** Creates or moves refs of the upstream (`{"refs/tags/v2.0": "main"}`) and deletes refs, as pushes would. */
export async function setUpstreamRefs(name: string, set: Record<string, string>, remove: string[] = []): Promise<void> {
  await control(`/repos/${name}/refs`, { set, delete: remove });
}
