/**
 * The test Worker never gets the developer's secrets: the Workers project reads a copy of
 * wrangler.toml in a folder of its own (test/config/wrangler-test-config.ts), so a key that
 * only `.dev.vars` sets is not bound. Checked on a temporary copy of the project's
 * wrangler.toml with a `.dev.vars` beside it (the developer's own file is never touched),
 * through the same Wrangler function the vitest plugin calls to build the Worker's bindings.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { writeTestWranglerConfig } from "./wrangler-test-config";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const KEY = "CC_TEST_DEV_VARS_SENTINEL";
const dir = mkdtempSync(join(tmpdir(), "cc-dev-vars-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The plain-text and secret bindings Wrangler gives a Worker configured by `configPath`. */
function bindingsOf(configPath: string): Record<string, unknown> {
  const previous = process.env.WRANGLER_LOG;
  // Wrangler logs "Using secrets defined in .dev.vars" when it reads one (the control case).
  process.env.WRANGLER_LOG = "warn";
  try {
    return (unstable_getMiniflareWorkerOptions(configPath).workerOptions.bindings ?? {}) as Record<string, unknown>;
  } finally {
    if (previous === undefined) delete process.env.WRANGLER_LOG;
    else process.env.WRANGLER_LOG = previous;
  }
}

describe("the test Worker's bindings", () => {
  cpSync(join(ROOT, "wrangler.toml"), join(dir, "wrangler.toml"));
  writeFileSync(join(dir, ".dev.vars"), `${KEY}=sk-ant-api03-not-a-real-key\nEMBEDDING_PROVIDER=workers-ai\n`);

  it("would include a .dev.vars key if Wrangler read the project's own wrangler.toml (the control)", () => {
    const direct = bindingsOf(join(dir, "wrangler.toml"));
    expect(direct[KEY]).toBe("sk-ant-api03-not-a-real-key");
    expect(direct.EMBEDDING_PROVIDER).toBe("workers-ai");
  });

  it("leave out every .dev.vars key and keep wrangler.toml's vars", () => {
    const configPath = writeTestWranglerConfig(dir);
    expect(existsSync(join(dir, ".dev.vars"))).toBe(true);
    const tested = bindingsOf(configPath);
    expect(Object.keys(tested)).not.toContain(KEY);
    expect(tested.EMBEDDING_PROVIDER).toBe("local");
  });

  it("refuse to write beside a secrets file", () => {
    writeFileSync(join(dir, ".wrangler", "vitest", ".dev.vars"), `${KEY}=x\n`);
    expect(() => writeTestWranglerConfig(dir)).toThrow(/must not read secrets files/);
  });
});
