/**
 * @module evals/lib/doc-blocks
 *
 * Where the eval and bench scripts write their generated blocks. The full tables of a run
 * (default runs, ablations, per repository, the benchmark) live in `docs/evaluation.md`; the
 * README shows a summary of each default run, derived from the same markdown by
 * `summarizeBlock`, so both files are always a script's output and never disagree.
 * Blocks are replaced between `<!-- KEY:start -->` and `<!-- KEY:end -->` (evals/lib/readme.ts).
 */

/** The file holding every full generated table, relative to the project root. */
export const EVALUATION_DOC = "docs/evaluation.md";

/** The user guide, which holds the summary blocks. */
export const README = "README.md";

/** One block to write: file (relative to the root), marker key, content, fallback heading. */
export interface BlockWrite {
  file: string;
  key: string;
  content: string;
  /** Heading the block is appended under when its markers are missing (replaceBlock). */
  heading: string;
}

/**
 * The blocks an eval run writes: its full block `eval:<set>[-ablation]` in docs/evaluation.md
 * and, for a default (non-ablation) run, the summary `eval-summary:<set>` in the README.
 */
export function evalBlockWrites(set: string, ablation: boolean, markdown: string): BlockWrite[] {
  const key = `eval:${set}${ablation ? "-ablation" : ""}`;
  const writes: BlockWrite[] = [{ file: EVALUATION_DOC, key, content: markdown, heading: "## Tables" }];
  if (!ablation) writes.push({ file: README, key: `eval-summary:${set}`, content: summarizeBlock(markdown), heading: "## Evaluation" });
  return writes;
}

/** The blocks `npm run bench` writes (the README links to them): the benchmark and, when it ran, the grep benchmark. */
export function benchBlockWrites(markdown: string, grepMarkdown: string | null = null): BlockWrite[] {
  const writes: BlockWrite[] = [{ file: EVALUATION_DOC, key: "bench", content: markdown, heading: "## Benchmarks" }];
  if (grepMarkdown) writes.push({ file: EVALUATION_DOC, key: "bench-grep", content: grepMarkdown, heading: "## Benchmarks" });
  return writes;
}

const PROVENANCE_RE = /^_Generated (\S+) at commit `([^`]+)`;.*_$/;

/**
 * The README summary of a full eval block: drops `<details>` sections (SWE-bench by repository)
 * and the indexing-time line, keeps only the pooled rows (`**All**`, `All: <category>`) of a
 * per-repository table (polyglot), and shortens the provenance line to its date and commit with
 * a link to docs/evaluation.md, where the full block and its reproduce command are.
 */
export function summarizeBlock(markdown: string): string {
  const out: string[] = [];
  let inDetails = false;
  let perRepoTable = false;
  for (const line of markdown.trim().split("\n")) {
    if (line.startsWith("<details>")) inDetails = true;
    if (inDetails) {
      if (line.includes("</details>")) inDetails = false;
      continue;
    }
    if (line.startsWith("Indexing: first upload")) continue;
    if (line.startsWith("| Repository |")) perRepoTable = true;
    else if (!line.startsWith("|")) perRepoTable = false;
    if (perRepoTable && line.startsWith("| ") && !/^\| (Repository|---|\*\*All\*\*|All: )/.test(line)) continue;
    const p = PROVENANCE_RE.exec(line);
    out.push(
      p ? `_Generated ${p[1]} at commit \`${p[2]}\`; the full tables and the command that reproduces them: [docs/evaluation.md](docs/evaluation.md)._` : line,
    );
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
