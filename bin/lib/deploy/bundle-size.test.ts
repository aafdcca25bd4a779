/** `node --test`: the bundle size read from `wrangler deploy --dry-run` and the plan it needs. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { bundleParts, bundleSizeBlock, parseBundleSize, planFor } from "./bundle-size.ts";

test("reads wrangler's Total Upload line and names the plan", () => {
  const size = parseBundleSize("Your Worker has access to ...\nTotal Upload: 20,452.51 KiB / gzip: 4112.92 KiB\n--dry-run: exiting now.");
  assert.deepEqual(size, { totalKiB: 20452.51, gzipKiB: 4112.92 });
  assert.equal(planFor(2171), "free");
  assert.equal(planFor(4112.92), "paid");
  assert.equal(planFor(11_000), null);
  assert.match(bundleSizeBlock(size, "abc1234", "2026-12-06"), /\*\*4,112\.92 KiB gzip\*\*.*needs \*\*Workers Paid\*\*.*abc1234 on 2026-12-06/);
  assert.throws(() => parseBundleSize("✘ [ERROR] Build failed"), /no "Total Upload/);
});

test("groups the uploaded modules, leaving the source map out", () => {
  const parts = bundleParts({
    "index.js": 2000,
    "index.js.map": 3700,
    "a-tree-sitter-go.wasm": 50,
    "b-web-tree-sitter.wasm": 80,
    "c-swagger-ui-bundle.js": 450,
    "d-x.md": 5,
  });
  assert.deepEqual(parts, [
    { name: "the Worker's JavaScript (libraries included)", gzipKiB: 2000 },
    { name: "Swagger UI for /api/docs", gzipKiB: 450 },
    { name: "tree-sitter runtime and grammars (wasm)", gzipKiB: 130 },
    { name: "other modules (prompts, data files)", gzipKiB: 5 },
  ]);
  assert.match(bundleSizeBlock({ totalKiB: 1, gzipKiB: 1 }, "c", "d", parts), /Of it \(each part gzipped alone\): the Worker's JavaScript/);
});
