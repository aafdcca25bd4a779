/**
 * Two vitest projects (`npm test` runs both; `--project node` or `--project workers` runs one):
 *
 * - `node`: test files whose imports need no Worker binding (parsers, chunk rules, filters,
 *   ranking maths, ...) run in plain Node, where a file costs milliseconds to set up.
 *   test/config/node-stand-ins.ts gives them what the Worker bundle would (text modules,
 *   tree-sitter grammars read from node_modules) and makes any `cloudflare:` import throw.
 * - `workers`: files whose imports reach `cloudflare:test`, `cloudflare:workers`, a
 *   workerd-only package or global run inside workerd with @cloudflare/vitest-plugin (D1,
 *   Durable Objects, queues, the Worker's routes). A vitest worker keeps one runtime for all the
 *   files it runs (`isolate: false`); test/apply-migrations.ts wipes every binding's storage
 *   before each file, so files stay independent.
 *
 * test/config/classify.ts decides the membership from the imports when this file is loaded.
 */
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { splitTestFiles } from "./test/config/classify.ts";
import { nodeStandIns, textRuleGlobs } from "./test/config/node-stand-ins.ts";
import { quietThirdPartySourceMaps } from "./test/config/quiet-source-maps.ts";
import { declaredBindingNames, testShardBindings, writeTestWranglerConfig } from "./test/config/wrangler-test-config.ts";

const root = fileURLToPath(new URL(".", import.meta.url));
const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));
const files = splitTestFiles(root, ["{kernel,prompts,worker,indexer,durable-objects,web,evals,scripts,test}/**/*.test.ts"]);

/** The test Worker's own bindings, on top of wrangler.toml's. */
const testBindings = { TEST_MIGRATIONS: migrations, ADMIN_TOKEN: "test-admin-token", ALLOW_LOOPBACK_GIT_URLS: "true" };
const declaredBindings = [...new Set([...declaredBindingNames(root), ...testShardBindings()]), ...Object.keys(testBindings), "TEST_DECLARED_BINDINGS"];

/**
 * workers-oauth-provider warns at import that CIMD is off unless the Worker has the
 * `global_fetch_strictly_public` flag. Production sets it (wrangler.toml, env.production); the
 * test Worker cannot, since its tests fetch loopback servers, so the line would repeat per file.
 */
const CIMD_NOTICE = "CIMD (Client ID Metadata Document) is disabled";

const timeouts = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    onConsoleLog: (log) => (log.startsWith(CIMD_NOTICE) ? false : undefined),
    // The Worker's own log lines (git fetch failures a test provokes, job events) are shown for
    // failing tests only: a passing run prints what a person should read, the summary.
    silent: "passed-only",
    // The root's globalSetup runs once for both projects; tests `inject(...)` the URLs.
    // Bundles web/client/ into web/assets/bundle.gen.ts (scripts/build-web.ts); serves fixture
    // git repositories over smart HTTP on loopback (`inject("gitServerUrl")`); the scripted
    // Anthropic Messages API server (`inject("messagesApiUrl")`); the fake GitHub and GitLab
    // APIs for connections (test/code-host-server.ts, `inject("codeHostUrl")`).
    globalSetup: ["./test/build-web.ts", "./test/git-server.ts", "./test/messages-api-setup.ts", "./test/code-host-server.ts"],
    projects: [
      {
        plugins: [nodeStandIns(root)],
        test: { name: "node", environment: "node", include: files.node, ...timeouts },
      },
      {
        // Text modules (wrangler.toml's Text rules) are loaded by the pool as workerd modules;
        // Vite still reads them when it walks the import graph (`--changed`, `related`).
        assetsInclude: textRuleGlobs(root),
        plugins: [
          quietThirdPartySourceMaps(),
          cloudflareTest({
            // A copy of wrangler.toml in a folder without .dev.vars: tests never get the developer's secrets.
            wrangler: { configPath: writeTestWranglerConfig(root) },
            miniflare: { bindings: { ...testBindings, TEST_DECLARED_BINDINGS: declaredBindings } },
          }),
        ],
        test: {
          name: "workers",
          include: files.workers,
          // Starting workerd and loading the Worker's modules cost seconds per file: one runtime
          // per vitest worker, reused; the setup file wipes storage before each file.
          isolate: false,
          setupFiles: ["./test/apply-migrations.ts"],
          ...timeouts,
        },
      },
    ],
  },
});
