/// <reference types="vite/client" />
/**
 * Golden tests of the chunker in workerd: for each fixture under testdata/, the chunks (kinds,
 * symbols, containers, signatures, line ranges), the symbol table and the imports must equal
 * the reviewed golden file (regenerate with `node indexer/chunk/testdata/regenerate.mjs`).
 * Independently of the goldens, every chunk's content must be the exact text of its lines and
 * every non-blank line must be covered.
 */
import { describe, expect, it } from "vitest";
import { chunkFile } from "./index";
import { expectWellFormed } from "./test-helpers";
import { GOLDEN_CASES } from "./testdata/cases";

const fixtures = import.meta.glob<string>("./testdata/*.txt", { query: "?raw", import: "default", eager: true });
const goldens = import.meta.glob<unknown>("./testdata/*.golden.json", { import: "default", eager: true });

describe("chunkFile goldens", () => {
  it("has a golden for every case", () => {
    for (const c of GOLDEN_CASES) {
      expect(fixtures[`./testdata/${c.fixture}`], c.fixture).toBeTypeOf("string");
      expect(goldens[`./testdata/${c.golden}`], c.golden).toBeDefined();
    }
  });

  for (const c of GOLDEN_CASES) {
    it(`${c.path} -> ${c.golden}`, async () => {
      const text = fixtures[`./testdata/${c.fixture}`];
      const out = await chunkFile(c.path, text, c.options);
      expectWellFormed(text, out);
      const actual = { language: out.language, chunks: out.chunks.map(({ content: _content, ...rest }) => rest), symbols: out.symbols, imports: out.imports };
      expect(actual).toEqual(goldens[`./testdata/${c.golden}`]);
    });
  }
});
