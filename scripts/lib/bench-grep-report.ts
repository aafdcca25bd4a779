/**
 * @module scripts/lib/bench-grep-report
 *
 * The markdown of `npm run bench:grep` (also run by `npm run bench`): per corpus, the storage
 * and build cost of the trigram index, how far a 10 GB D1 database goes, the 50 patterns' match
 * sets beside ripgrep's, and warm latency beside rg in the same run. Pure: JSON in, text out.
 */

/** D1's database size limit (Cloudflare D1 limits: 10 GB per database on the paid plan). */
export const D1_MAX_DATABASE_BYTES = 10e9;

/** One pattern's comparison with rg. */
export interface GrepCorrectness {
  pattern: string;
  regex?: boolean;
  case_sensitive?: boolean;
  whole_word?: boolean;
  grep: number;
  rg: number;
  equal: boolean;
  missing: string[];
  extra: string[];
}

/** Latency of one class of patterns (ms), grep and rg sampled in pairs. */
export interface GrepLatency {
  grepP50: number;
  grepP95: number;
  rgP50: number;
  rgP95: number;
  /** Median over the pairs of grep ms / rg ms (the same pattern, back to back). */
  pairedRatioP50: number;
  samples: number;
}

/** One corpus's figures. */
export interface GrepCorpusReport {
  repo: string;
  files: number;
  lines: number;
  sourceBytes: number;
  indexWallMs: number;
  trigramIndexBytes: number;
  trigramBytesPerSourceByte: number;
  trigramBuildMs: number;
  trigramBuildMsPerMB: number;
  /** Growth of the local D1 database file while this corpus was indexed (text, chunks, postings, trigrams). */
  d1Bytes: number | null;
  correctness: GrepCorrectness[];
  equalPatterns: number;
  latency: Record<string, GrepLatency>;
}

/** The whole run. */
export interface GrepBenchResult {
  date: string;
  commit: string;
  rg: string;
  rounds: number;
  machine: string;
  command: string;
  corpora: GrepCorpusReport[];
}

const flags = (c: GrepCorrectness) =>
  [c.regex ? "regex" : "literal", c.case_sensitive === false ? "-i" : "", c.whole_word ? "-w" : ""].filter(Boolean).join(" ");
const gb = (bytes: number) => (bytes / 1e9).toFixed(1);

/** Markdown for docs/evaluation.md (block `bench-grep`). */
export function grepBenchMarkdown(r: GrepBenchResult): string {
  const out: string[] = [];
  out.push(
    "**Grep** (`/api/grep`, one page of 50 lines as an agent calls it, warm) beside ripgrep on the same tree in the same run (`rg -n`, process spawn included, every match printed); each grep sample is paired with an rg run of the same pattern right after it, and the ratio column is the median of those per-pair ratios. Timings on a shared 2-core machine are noisy: compare the paired columns, not runs.",
    "",
    "| Corpus | Files | Lines | Source MB | Class | grep p50 ms | grep p95 ms | rg p50 ms | rg p95 ms | paired grep/rg p50 |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const c of r.corpora)
    for (const [k, v] of Object.entries(c.latency))
      out.push(
        `| ${c.repo} | ${c.files} | ${c.lines} | ${(c.sourceBytes / 1e6).toFixed(1)} | ${k} | ${v.grepP50.toFixed(1)} | ${v.grepP95.toFixed(1)} | ${v.rgP50.toFixed(1)} | ${v.rgP95.toFixed(1)} | ${v.pairedRatioP50.toFixed(2)}x |`,
      );
  out.push(
    "",
    '**Trigram index storage** (migrations/0008\'s FTS5 table rebuilt in node:sqlite from the same texts, one core; "D1 per source byte" is the growth of the local D1 file while the corpus was indexed: texts, chunks, postings and trigrams together):',
    "",
    "| Corpus | Trigram MB | Trigram bytes / source byte | Build ms per source MB | D1 bytes / source byte | Source in 10 GB of D1 (trigrams only / everything) |",
    "| --- | --- | --- | --- | --- | --- |",
  );
  for (const c of r.corpora) {
    const d1PerByte = c.d1Bytes !== null ? c.d1Bytes / c.sourceBytes : null;
    out.push(
      `| ${c.repo} | ${(c.trigramIndexBytes / 1e6).toFixed(2)} | ${c.trigramBytesPerSourceByte.toFixed(3)} | ${c.trigramBuildMsPerMB.toFixed(0)} | ${d1PerByte === null ? "" : d1PerByte.toFixed(1)} | ${gb(D1_MAX_DATABASE_BYTES / c.trigramBytesPerSourceByte)} GB / ${d1PerByte === null ? "?" : gb(D1_MAX_DATABASE_BYTES / d1PerByte)} GB |`,
    );
  }
  out.push("");
  for (const c of r.corpora) {
    out.push(
      `<details><summary>${c.repo}: ${c.equalPatterns}/${c.correctness.length} patterns with the same (path, line) set as ${r.rg}</summary>`,
      "",
      "| pattern | flags | grep lines | rg lines | same |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const k of c.correctness)
      out.push(
        `| \`${k.pattern.replace(/\|/g, "\\|")}\` | ${flags(k)} | ${k.grep} | ${k.rg} | ${k.equal ? "yes" : `no (missing ${k.missing.join(", ")}; extra ${k.extra.join(", ")})`} |`,
      );
    out.push("", "</details>", "");
  }
  out.push(
    `_Generated ${r.date.slice(0, 10)} at commit \`${r.commit.slice(0, 7)}\` on ${r.machine}; local wrangler dev (clean export of the commit), ${r.rounds} rounds; ${r.rg} with \`--no-ignore --hidden\` for the match sets, kept to the files the index holds (the product's ignore rules on both sides). Reproduce: \`${r.command}\`._`,
  );
  return out.join("\n");
}
