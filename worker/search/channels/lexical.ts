/**
 * @module worker/search/channels/lexical
 *
 * The BM25 and path channels run together. Both score the same postings: the BM25 channel for
 * its list, the path channel for the best chunks of the files the query names. Run apart, each
 * scans and scores them (bm25Statement twice); together, the named files are found first (from
 * the per-isolate file list) and one statement returns both lists (bm25WithPaths), the same rows
 * and scores as the two statements. A failure to list the files fails the path channel only.
 */
import type { ChannelResult } from "../types";
import { bm25Channel, bm25Statement, bm25WithPaths, type Bm25Hit, type Bm25Row } from "./bm25";
import { namedFiles, pathChannel } from "./path";
import type { ChannelScope } from "./scope";

/** The two channels' results over one scoring statement: `{ bm25, path }`, each as its channel alone would return it. */
export function lexicalChannels(scope: ChannelScope): { bm25: Promise<ChannelResult>; path: Promise<ChannelResult> } {
  const ranked = namedFiles(scope);
  const lists: Promise<{ top: Bm25Hit[]; inPaths: Bm25Row[] }> = ranked
    .catch((): [string, number][] => [])
    .then(async (named) =>
      named.length && scope.terms.length
        ? bm25WithPaths(
            scope,
            scope.terms,
            scope.depth,
            named.map(([p]) => p),
          )
        : { top: scope.terms.length ? (await bm25Statement(scope, scope.terms, scope.depth).all<Bm25Hit>()).results : [], inPaths: [] },
    );
  return {
    bm25: bm25Channel(
      scope,
      lists.then((l) => l.top),
    ),
    path: ranked.then((r) => pathChannel(scope, { ranked: r, matched: lists.then((l) => l.inPaths) })),
  };
}
