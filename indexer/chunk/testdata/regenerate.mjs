// Regenerates the golden files of indexer/chunk/chunk.test.ts from the fixtures here:
//   cd /work/main && npx node indexer/chunk/testdata/regenerate.mjs
// Review the diff by eye before committing: the goldens are the specification.
import "../../../scripts/lib/extensionless-ts.ts";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";


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
