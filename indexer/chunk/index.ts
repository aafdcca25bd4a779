/**
 * @module indexer/chunk
 *
 * Splits a file into chunks (the unit search returns), its symbol table and its imports.
 * Languages with a grammar get syntax-aware chunks; markdown is split by headings; every other
 * file becomes overlapping line windows. This entry installs the workerd grammar loader
 * (wasm imported as modules); Node code imports chunk-file.ts and calls setGrammarLoader.
 */
import { workerdGrammarLoader } from "./grammars-workerd";
import { setGrammarLoader } from "./parser";

setGrammarLoader(workerdGrammarLoader);

export { chunkFile, DEFAULT_MAX_CHUNK_LINES, type ChunkOptions } from "./chunk-file";
export { detectLanguage, hasGrammar, GRAMMAR_LANGUAGES, type GrammarLanguage } from "./languages";
export { setGrammarLoader, type GrammarLoader } from "./parser";
