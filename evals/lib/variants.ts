/**
 * @module evals/lib/variants
 *
 * The ablation grid (issue 4): each channel alone, BM25 + vector, all channels, with and
 * without the per-file cap. `mode` selects one channel or all; combinations other than those
 * need the server's `channels` option (a server without it answers 400 and the row says so).
 */
import type { SearchVariant } from "./types.ts";

/** Variants run by `--ablation`, in table order. `perFileCap: 0` turns the cap off. */
export const ABLATION_VARIANTS: SearchVariant[] = [
  { label: "bm25 only", mode: "bm25" },
  { label: "vector only", mode: "vector" },
  { label: "symbol only", mode: "symbol" },
  { label: "path only", channels: ["path"] },
  { label: "bm25 + vector", channels: ["bm25", "vector"] },
  { label: "bm25 + vector, no per-file cap", channels: ["bm25", "vector"], perFileCap: 0 },
  { label: "all channels (hybrid, default cap)", mode: "hybrid" },
  { label: "all channels, no per-file cap", mode: "hybrid", perFileCap: 0 },
];
