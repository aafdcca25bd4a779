// Regenerates the golden files of indexer/chunk/chunk.test.ts from the fixtures here:
//   cd /work/main && npx node indexer/chunk/testdata/regenerate.mjs
// Review the diff by eye before committing: the goldens are the specification.
import { registerHooks } from "node:module";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// The chunker's TypeScript imports have no extension (bundler style); let Node find the .ts.
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (err) {
      if (specifier.startsWith(".") && !/\.[a-z]+$/.test(specifier)) return next(`${specifier}.ts`, context);
      throw err;
    }
  },
});

const here = fileURLToPath(new URL(".", import.meta.url));
const nm = fileURLToPath(new URL("../../../node_modules/", import.meta.url));
const { chunkFile } = await import("../chunk-file.ts");
const { setGrammarLoader } = await import("../parser.ts");
const { GOLDEN_CASES } = await import("./cases.ts");
setGrammarLoader(async (name) => {
  const { GRAMMAR_FILES } = await import("../grammar-files.ts");
  return readFileSync(nm + GRAMMAR_FILES[name]);
});

for (const c of GOLDEN_CASES) {
  const text = readFileSync(here + c.fixture, "utf8");
  const out = await chunkFile(c.path, text, c.options);
  const golden = {
    language: out.language,
    chunks: out.chunks.map(({ content, ...rest }) => rest),
    symbols: out.symbols,
    imports: out.imports,
  };
  writeFileSync(here + c.golden, JSON.stringify(golden, null, 1) + "\n");
  console.log(c.golden, out.chunks.length, "chunks", out.symbols.length, "symbols");
}
