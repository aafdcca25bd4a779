import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { TEST_MIGRATIONS: migrations, ADMIN_TOKEN: "test-admin-token", ALLOW_LOOPBACK_GIT_URLS: "true" },
      },
    }),
  ],
  test: {
    include: ["{kernel,prompts,worker,indexer,durable-objects,web,evals,test}/**/*.test.ts"],
    setupFiles: ["./test/apply-migrations.ts"],
    // Serves fixture git repositories over smart HTTP on loopback; tests `inject("gitServerUrl")`.
    // The scripted Anthropic Messages API server; tests `inject("messagesApiUrl")`. Also bundles
    // web/client/ into web/assets/bundle.gen.ts (scripts/build-web.ts) first. The fake GitHub and
    // GitLab APIs for connections (test/code-host-server.ts); tests `inject("codeHostUrl")`.
    globalSetup: ["./test/build-web.ts", "./test/git-server.ts", "./test/messages-api-setup.ts", "./test/code-host-server.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
