/**
 * @module scripts/lib/webhook-latency
 *
 * Time from a push webhook delivery to the pushed commit being searchable (Node only). The
 * corpus becomes a git repository served over smart HTTP on loopback (git-http-mock-server,
 * the real `git http-backend`), is registered as a git repo and indexed, gets a webhook
 * secret; then one file is changed and pushed, a signed GitHub `push` delivery is sent, and a
 * search for a word only the new version contains is repeated until it finds the file. The
 * figure is delivery sent -> first search that finds it (client clock), so it includes the
 * fetch of the whole tree (shallow, one commit), planning, one file's indexing and the flip.
 */
import { execFileSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ApiClient } from "../../evals/lib/client.ts";

/** What one measurement found. Times in ms. */
export interface WebhookLatency {
  /** Delivery sent -> the first search that returns the changed file with the new word. */
  deliveryToSearchableMs: number;
  /** Of which: delivery sent -> response (202). */
  deliveryResponseMs: number;
  /** The registering job (cold index of the git repo), for context. */
  initialIndexMs: number;
  changedPath: string;
  pushedCommit: string;
  searchPolls: number;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Bench",
      GIT_AUTHOR_EMAIL: "bench@example.com",
      GIT_COMMITTER_NAME: "Bench",
      GIT_COMMITTER_EMAIL: "bench@example.com",
    },
  });
}

async function waitReady(client: ApiClient, repo: string, jobId: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const s = (await client.request("GET", `/api/repos/${repo}`)) as { status: string; job?: { id: string }; lastError?: string };
    if (s.job?.id === jobId && s.status === "ready") return;
    if (s.job?.id === jobId && s.status === "failed") throw new Error(`indexing ${repo} failed: ${s.lastError}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`indexing ${repo} did not finish in ${timeoutMs} ms`);
}

/**
 * Runs the measurement against a running server. `projectRoot`: git-http-mock-server finds
 * repositories only below the working directory, so they go under `<projectRoot>/.wrangler/`.
 * `editPath`: the corpus file to change (relative path).
 */
export async function measureWebhookToSearchable(o: {
  client: ApiClient;
  baseUrl: string;
  corpus: string;
  projectRoot: string;
  repo: string;
  editPath: string;
  gitPort: number;
  log: (s: string) => void;
}): Promise<WebhookLatency> {
  const root = join(o.projectRoot, ".wrangler", "bench-git", String(process.pid));
  rmSync(root, { recursive: true, force: true });
  const work = join(root, "work");
  mkdirSync(work, { recursive: true });
  cpSync(o.corpus, work, { recursive: true });
  git(work, "init", "-q", "-b", "main");
  git(work, "add", "-A", "-f");
  git(work, "commit", "-q", "-m", "corpus");
  git(root, "clone", "-q", "--bare", work, join(root, `${o.repo}.git`));
  git(work, "remote", "add", "origin", join(root, `${o.repo}.git`));

  const require = createRequire(import.meta.url);
  const factory = require("git-http-mock-server/middleware") as (c: {
    root: string;
    glob: string;
    route: string;
  }) => (req: unknown, res: unknown, next?: () => void) => void;
  const middleware = factory({ root, glob: "*", route: "/" });
  const server: Server = createServer((req, res) => middleware(req, res, () => ((res.statusCode = 404), res.end())));
  await new Promise<void>((r) => server.listen(o.gitPort, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${o.gitPort}/${o.repo}.git`;
    const started = Date.now();
    const reg = (await o.client.request("POST", "/api/repos", { url, name: o.repo })) as { job: { id: string } };
    await waitReady(o.client, o.repo, reg.job.id, 900_000);
    const initialIndexMs = Date.now() - started;
    o.log(`webhook bench: ${o.repo} indexed from git in ${initialIndexMs} ms`);
    const { secret } = (await o.client.request("POST", `/api/repos/${o.repo}/webhook`)) as { secret: string };

    const marker = `benchwebhookmarker${randomUUID().replace(/-/g, "").slice(0, 12)}`;
    const file = join(work, o.editPath);
    writeFileSync(file, `${readFileSync(file, "utf8")}\n// ${marker}: one changed line\n`);
    git(work, "commit", "-q", "-am", "one file changed");
    git(work, "push", "-q", "origin", "main");
    const pushedCommit = git(work, "rev-parse", "HEAD").trim();

    const body = JSON.stringify({ ref: "refs/heads/main", after: pushedCommit, deleted: false, repository: { clone_url: url, default_branch: "main" } });
    const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
    const t0 = performance.now();
    const res = await fetch(`${o.baseUrl}/api/webhooks/github?repo=${o.repo}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "push", "x-github-delivery": randomUUID(), "x-hub-signature-256": signature },
      body,
    });
    const deliveryResponseMs = performance.now() - t0;
    if (res.status !== 202) throw new Error(`webhook delivery answered ${res.status}: ${await res.text()}`);
    let polls = 0;
    for (;;) {
      polls++;
      const { response } = await o.client.search({ query: marker, repo: o.repo, k: 5 });
      if (response.results.some((r) => r.path === o.editPath)) break;
      if (performance.now() - t0 > 300_000) throw new Error("the pushed change was not searchable after 300 s");
      await new Promise((r) => setTimeout(r, 25));
    }
    const deliveryToSearchableMs = performance.now() - t0;
    o.log(
      `webhook bench: delivery -> searchable ${deliveryToSearchableMs.toFixed(0)} ms (${polls} searches; delivery answered in ${deliveryResponseMs.toFixed(0)} ms)`,
    );
    return { deliveryToSearchableMs, deliveryResponseMs, initialIndexMs, changedPath: o.editPath, pushedCommit, searchPolls: polls };
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(root, { recursive: true, force: true });
  }
}
