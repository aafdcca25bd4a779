/**
 * Starts the product as `npm start` does (D1 migrations, then `wrangler dev` on loopback with a
 * throw-away state folder and admin token, `/__scheduled` served as under npm start, handed over in a mode-600 env file, not argv), indexes a fixture folder through the real archive
 * upload, runs `body`, and stops the server by process group whatever happens.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient } from "../../bin/lib/api-client.ts";
import { localD1Bindings } from "../../bin/lib/d1-bindings.ts";
import { PROJECT_ROOT } from "../../bin/lib/paths.ts";
import { listFolderFiles, packFolder } from "../../bin/lib/pack-folder.ts";
import { isHealthy, runWrangler, startDevServer, waitForHealth, type DevServer } from "../../bin/lib/wrangler.ts";

/** What a test body gets: the server's base URL, the admin token and the work folder. */
export interface E2eServer {
  base: string;
  token: string;
  work: string;
}

/**
 * Runs `body` against a fresh server on `port` whose repo `repo` holds the folder that
 * `writeFixture(dir)` writes. `vars` are extra variables and secrets for the Worker (written to
 * the mode-600 env file, e.g. ANTHROPIC_API_KEY). Throws if the port is taken or indexing fails.
 */
export async function withIndexedServer(
  port: number,
  repo: string,
  writeFixture: (dir: string) => void,
  body: (s: E2eServer) => Promise<void>,
  vars: Record<string, string> = {},
): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  if (await isHealthy(base)) throw new Error(`Something already answers on ${base}; pick another port.`);
  const work = mkdtempSync(join(tmpdir(), "ccp-e2e-"));
  const persist = join(work, "state");
  const fixture = join(work, repo);
  const token = randomBytes(32).toString("base64url");
  let server: DevServer | undefined;
  try {
    writeFixture(fixture);
    for (const binding of localD1Bindings(PROJECT_ROOT)) await runWrangler(["d1", "migrations", "apply", binding, "--local", "--persist-to", persist]);
    server = startDevServer({
      port,
      persistTo: persist,
      logFile: join(work, "wrangler.log"),
      vars: { ...vars, ADMIN_TOKEN: token, ALLOW_LOOPBACK_GIT_URLS: "true" },
      envFile: join(work, "dev.vars"),
      includeProjectDevVars: false,
      testScheduled: true,
    });
    await waitForHealth(base, server, join(work, "wrangler.log"));
    const api = createApiClient(base, token);
    await api.uploadArchive(repo, await packFolder(fixture, listFolderFiles(fixture).files));
    for (let s = await api.status(repo); s.status !== "ready"; s = await api.status(repo)) {
      if (s.status === "failed") throw new Error(`indexing failed: ${JSON.stringify(s.lastError)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    await body({ base, token, work });
  } finally {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
