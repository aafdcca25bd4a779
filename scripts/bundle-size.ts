/**
 * `npm run docs:bundle-size`: runs `wrangler deploy --dry-run --env production` (no account
 * needed, nothing uploaded), reads the bundle's size and rewrites the README's
 * `bundle-size` block with it and the Cloudflare plan it needs, so that figure is never typed
 * by hand, with the gzip size of its parts (each file of `--outdir` gzipped alone, so the parts
 * add up to about the total). Prints the block.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { replaceBlock } from "../evals/lib/readme.ts";
import { bundleParts, bundleSizeBlock, parseBundleSize } from "../bin/lib/deploy/bundle-size.ts";
import { PROJECT_ROOT } from "../bin/lib/paths.ts";
import { runWrangler } from "../bin/lib/wrangler.ts";

const outdir = mkdtempSync(join(tmpdir(), "ccp-bundle-"));
try {
  const output = await runWrangler(["deploy", "--dry-run", "--env", "production", "--outdir", outdir]);
  const commit = execFileSync("git", ["-C", PROJECT_ROOT, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const files = Object.fromEntries(readdirSync(outdir).map((f) => [f, gzipSync(readFileSync(join(outdir, f))).length / 1024]));
  const block = bundleSizeBlock(parseBundleSize(output), commit, new Date().toISOString().slice(0, 10), bundleParts(files));
  const readme = join(PROJECT_ROOT, "README.md");
  writeFileSync(readme, replaceBlock(readFileSync(readme, "utf8"), "bundle-size", block, "## Deploying to Cloudflare"));
  console.log(block);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
