/**
 * The test Worker's `env` holds no text the configuration does not declare: every string
 * binding is one wrangler.toml or vitest.config.mts names, so no key from the developer's
 * `.dev.vars` or `.env` (both arrive as strings). test/config/dev-vars.test.ts checks that a
 * planted key is left out; this checks the running Worker.
 */
import { env } from "cloudflare:test";
import { expect, it } from "vitest";

/** The pool's own bindings (its version and services), not the project's. */
const POOL_PREFIX = "__VITEST_POOL_WORKERS_";

it("binds no text but the declared names", () => {
  const declared = new Set(env.TEST_DECLARED_BINDINGS);
  expect(declared.has("ADMIN_TOKEN") && declared.has("EMBEDDING_PROVIDER")).toBe(true);
  const undeclared = Object.entries(env)
    .filter(([name, value]) => typeof value === "string" && !name.startsWith(POOL_PREFIX) && !declared.has(name))
    .map(([name]) => name);
  expect(undeclared).toEqual([]);
});
