/** Types of `env` from `cloudflare:test`: the Worker's bindings plus test-only ones. */
import type { D1Migration } from "cloudflare:test";
import type { Env as WorkerEnv } from "../kernel/env";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** Every binding name wrangler.toml and vitest.config.mts declare (test/worker/test-bindings.test.ts). */
      TEST_DECLARED_BINDINGS: string[];
    }
  }
}
export {};
