/**
 * `codebase-copilot suggest-tests <repo> <path> <symbol>`: a test skeleton for one function or
 * method from the index (POST /api/suggest-tests). Prints the facts and the skeleton, or with
 * `--write` writes the skeleton to the suggested test path under the current folder. `--fill`
 * asks the model to complete the bodies (checked against the index); the filled test, when it
 * passed, replaces the skeleton in the output and in `--write`.
 */
import { Option, type Command } from "commander";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SuggestedTests } from "./api-client.ts";
import { client, globals, print, UsageError } from "./cli-common.ts";

/** Frameworks the server writes for (TEST_FRAMEWORKS in worker/services/suggest-tests-schema.ts). */
const FRAMEWORKS = ["vitest", "jest", "node:test", "pytest", "unittest", "go-testing", "junit5"];

/** The human rendering: where the test goes, the facts with path:line, notes, the skeleton. */
export function formatSuggestion(r: SuggestedTests): string {
  return [
    `${r.symbol} (${r.repo}:${r.path}) — ${r.framework}, test file ${r.test_path}${r.test_path_exists ? " (exists: merge into it)" : ""}`,
    ...r.facts.map((f) => `  ${f.path}:${f.line} ${f.kind}: ${f.text}`),
    ...r.notes.map((n) => `note: ${n}`),
    ...(r.fill
      ? [`fill: ${r.fill.filled ? "filled" : "not filled"}: ${r.fill.reason}`, ...r.fill.unresolved.map((u) => `  unresolved ${u.name} at line ${u.line}`)]
      : []),
    "",
    testText(r),
  ].join("\n");
}

/** The filled test when the fill passed its checks, else the skeleton. */
function testText(r: SuggestedTests): string {
  return r.fill?.filled && r.fill.test !== null ? r.fill.test : r.skeleton;
}

/** Adds `suggest-tests` to `program`. */
export function addSuggestTestsCommand(program: Command): void {
  program
    .command("suggest-tests")
    .description("A test skeleton for one function or method: real signature, collaborators, thrown errors, the repo's framework and layout")
    .argument("<repo>", "the indexed repo id")
    .argument("<path>", "the file that defines the symbol, e.g. src/pricing/discount.ts")
    .argument("<symbol>", 'function or method: applyDiscount, Cart.total, "format(Invoice, Locale)"')
    .option("--ref <ref>", "branch or tag of the repo to read (default: its default branch)")
    .addOption(new Option("--framework <name>", "write for this framework instead of the repo's own").choices(FRAMEWORKS))
    .option("--fill", "have the model complete the bodies (needs a generation provider; spends model tokens)")
    .option("--write", "write the skeleton to the suggested test path under the current folder (refuses to overwrite)")
    .action(async (repo: string, path: string, symbol: string, o: { ref?: string; framework?: string; write?: boolean; fill?: boolean }, cmd: Command) => {
      const g = globals(cmd);
      const r = await client(g).suggestTests({
        repo,
        path,
        symbol,
        ...(o.ref ? { ref: o.ref } : {}),
        ...(o.framework ? { framework: o.framework } : {}),
        ...(o.fill ? { fill: true } : {}),
      });
      if (o.write) {
        if (existsSync(r.test_path)) throw new UsageError(`${r.test_path} exists; merge the printed skeleton into it by hand (run without --write).`);
        mkdirSync(dirname(r.test_path), { recursive: true });
        writeFileSync(r.test_path, testText(r));
      }
      print(g, r, () => formatSuggestion(r) + (o.write ? `\nwrote ${r.test_path}` : ""));
    });
}
