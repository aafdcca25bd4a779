/**
 * The grammar loader of the Node test project: indexer/chunk/index.ts imports
 * `./grammars-workerd`, which the Node project resolves here (test/config/node-stand-ins.ts).
 * Node compiles wasm from bytes, so the same files are read from node_modules, as the chunk
 * benchmark does (scripts/bench-chunk.ts).
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { GRAMMAR_FILES } from "../../indexer/chunk/grammar-files";
import type { GrammarLoader } from "../../indexer/chunk/parser";

const NODE_MODULES = fileURLToPath(new URL("../../node_modules/", import.meta.url));

/** Reads web-tree-sitter's runtime or a grammar's wasm from node_modules. */
export const workerdGrammarLoader: GrammarLoader = async (name) => new Uint8Array(await readFile(NODE_MODULES + GRAMMAR_FILES[name]));
