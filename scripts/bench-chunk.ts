/**
 * Parse-and-chunk throughput on a real repository tree, on one core:
 *
 *   node scripts/bench-chunk.ts /tmp/hono [--repeat 3]
 *
 * Walks the folder (skipping `.git`, `node_modules` and other dot or vendor folders, and files
 * over 1 MiB or with NUL bytes), chunks every file with indexer/chunk (tree-sitter grammars
 * read from node_modules instead of imported as workerd modules) and prints JSON: files,
 * lines, chunks, seconds per pass (chunking only, grammars preloaded), lines per second (mean
 * wall time, fastest pass, and CPU time: the bench is single-threaded, so CPU seconds are
 * seconds on one core even on a busy machine). The target from issue 3 is >= 50,000 lines/s.
 */
import "./lib/extensionless-ts.ts";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** What the bench uses from indexer/chunk (imported at run time; its imports are bundler-style). */
interface ChunkModule {
  chunkFile(path: string, text: string): Promise<{ language: string; chunks: unknown[] }>;
}
interface ParserModule {
  setGrammarLoader(fn: (name: string) => Promise<Uint8Array>): void;
  getParser(language: string): Promise<unknown>;
}
interface LanguagesModule {
  GRAMMAR_LANGUAGES: readonly string[];
}

const MAX_FILE_BYTES = 1024 * 1024;
const SKIP_DIRS = new Set(["node_modules", "vendor", "dist", "build", "target", "coverage"]);

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile() && statSync(path).size <= MAX_FILE_BYTES) out.push(path);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const root = args.find((a) => !a.startsWith("--"));
  const repeatAt = args.indexOf("--repeat");
  const repeat = repeatAt >= 0 ? Math.max(1, Number(args[repeatAt + 1]) || 1) : 1;
  if (!root) {
    console.error("usage: node scripts/bench-chunk.ts <folder> [--repeat N]");
    process.exit(2);
  }
  const chunkDir = new URL("../indexer/chunk/", import.meta.url);
  const nodeModules = fileURLToPath(new URL("../node_modules/", import.meta.url));
  const { chunkFile } = (await import(new URL("chunk-file.ts", chunkDir).href)) as ChunkModule;
  const parser = (await import(new URL("parser.ts", chunkDir).href)) as ParserModule;
  const { GRAMMAR_LANGUAGES } = (await import(new URL("languages.ts", chunkDir).href)) as LanguagesModule;
  const { GRAMMAR_FILES } = (await import(new URL("grammar-files.ts", chunkDir).href)) as { GRAMMAR_FILES: Record<string, string> };
  parser.setGrammarLoader(async (name) => readFileSync(join(nodeModules, GRAMMAR_FILES[name])));

  const paths: string[] = [];
  walk(root, paths);
  const files: { path: string; text: string }[] = [];
  for (const p of paths) {
    const buf = readFileSync(p);
    if (buf.includes(0)) continue;
    files.push({ path: relative(root, p), text: buf.toString("utf8") });
  }
  // Grammar loading (wasm compile) is a once-per-isolate cost, measured apart from chunking.
  const loadStart = performance.now();
  for (const l of GRAMMAR_LANGUAGES) await parser.getParser(l);
  const grammarLoadSeconds = (performance.now() - loadStart) / 1000;

  let lines = 0;
  let chunks = 0;
  const byLanguage: Record<string, number> = {};
  // Wall time of the fastest pass and CPU time per pass: the machine may be shared, and CPU
  // time is what "one core" means.
  let bestSeconds = Infinity;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let r = 0; r < repeat; r++) {
    const passStart = performance.now();
    for (const f of files) {
      const out = await chunkFile(f.path, f.text);
      if (r === 0) {
        const n = f.text.split("\n").length;
        lines += n;
        chunks += out.chunks.length;
        byLanguage[out.language] = (byLanguage[out.language] ?? 0) + n;
      }
    }
    bestSeconds = Math.min(bestSeconds, (performance.now() - passStart) / 1000);
  }
  const seconds = (performance.now() - start) / 1000 / repeat;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6 / repeat;
  console.log(
    JSON.stringify(
      {
        root,
        files: files.length,
        lines,
        chunks,
        seconds: +seconds.toFixed(3),
        linesPerSecond: Math.round(lines / seconds),
        bestPassSeconds: +bestSeconds.toFixed(3),
        linesPerSecondBestPass: Math.round(lines / bestSeconds),
        cpuSeconds: +cpuSeconds.toFixed(3),
        linesPerCpuSecond: Math.round(lines / cpuSeconds),
        grammarLoadSeconds: +grammarLoadSeconds.toFixed(3),
        repeat,
        byLanguage,
      },
      null,
      2,
    ),
  );
}

await main();
