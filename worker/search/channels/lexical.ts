/**
 * @module worker/search/channels/lexical
 *
 * The BM25 and path channels run together. Both score the same postings: the BM25 channel for
 * its list, the path channel for the best chunks of the files the query names. Run apart, each
 * scans and scores them (bm25Statement twice); together, the named files are found first (from
 * the per-isolate file list) and one statement returns both lists (bm25WithPaths), the same rows
 * and scores as the two statements. A failure to list the files fails the path channel only.
 */
import { PATH_CHUNKS_PER_FILE } from "../ranking/weights";
import type { ChannelResult } from "../types";
import { bm25Channel, bm25WithPaths } from "./bm25";
import { namedFiles, pathChannel } from "./path";
import type { ChannelScope } from "./scope";

/** The two channels' results over one scoring statement: `{ bm25, path }`, each as its channel alone would return it. */
export function lexicalChannels(scope: ChannelScope): { bm25: Promise<ChannelResult>; path: Promise<ChannelResult> } {
  const ranked = namedFiles(scope);
  // Without a named file (or a file list) there is nothing to share: the BM25 channel reads alone.
  const lists = ranked
    .catch((): [string, number][] => [])
    .then((named) =>
      named.length && scope.terms.length
        ? bm25WithPaths(
            scope,
            scope.terms,
            scope.depth,
            named.map(([p]) => p),
            PATH_CHUNKS_PER_FILE,
          )
        : null,
    );
  return {
    bm25: lists.then((l) => bm25Channel(scope, l?.top)),
    path: ranked.then((r) => pathChannel(scope, { ranked: r, matched: lists.then((l) => l?.inPaths ?? []) })),
  };
}
