/**
 * @module evals/lib/sets-fs
 *
 * Reads a folder of retrieval sets from disk (Node only): every `*.json` of `evals/sets/polyglot/`,
 * one per repository, named after its file (`gin.json` -> `gin`), in file-name order.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseRetrievalSet } from "./sets.ts";
import type { RetrievalSet } from "./types.ts";

/** Parses every `*.json` in `dir`; throws naming the file and question that is malformed. */
export function readSetDir(dir: string): RetrievalSet[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => parseRetrievalSet(f.slice(0, -".json".length), JSON.parse(readFileSync(join(dir, f), "utf8"))));
}
