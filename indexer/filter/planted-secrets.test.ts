/** Every planted secret form (test/fixtures/planted-secrets.ts) is skipped as `secret`, with a rule id and never the value. */
import { describe, expect, it } from "vitest";
import { plantedSecrets } from "../../test/fixtures/planted-secrets";
import { createFileFilter } from "./file-filter";

const filter = createFileFilter({ maxFileBytes: 1 << 20, ignoreFiles: [] });

describe("planted secrets", () => {
  const planted = plantedSecrets();
  it("the corpus holds the forms issues 20 and 43 found indexed and the ones caught before", () => {
    expect(planted.length).toBeGreaterThanOrEqual(45);
    for (const p of planted) if (p.value) expect(p.content).toContain(p.value);
  });
  it.each(planted.map((p) => [p.form, p] as const))("%s -> secret", async (_form, p) => {
    const byEntry = filter.checkEntry({ path: p.path, mode: "100644", size: p.content.length });
    const skip = byEntry ?? (await filter.checkContent(p.path, new TextEncoder().encode(p.content)).then((v) => ("skip" in v ? v.skip : null)));
    expect(skip?.reason).toBe("secret");
    expect(skip?.rule).toMatch(/^(name|path|ext|pattern|secretlint)[:/]/);
    if (p.value) expect(skip?.rule).not.toContain(p.value);
  });
});
