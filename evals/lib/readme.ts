/**
 * @module evals/lib/readme
 *
 * Replaces generated blocks of a markdown file (README.md, docs/evaluation.md) between `<!-- KEY:start -->` and `<!-- KEY:end -->`
 * (e.g. `eval:fixture`, `bench`), so the numbers there are always a script's output. A block
 * whose markers are missing is appended under `heading` (created at the end when absent).
 */

/** Returns `readme` with the block `key` set to `content`. */
export function replaceBlock(readme: string, key: string, content: string, heading: string): string {
  const start = `<!-- ${key}:start -->`;
  const end = `<!-- ${key}:end -->`;
  const block = `${start}\n${content.trim()}\n${end}`;
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i >= 0 && j > i) return readme.slice(0, i) + block + readme.slice(j + end.length);
  const h = readme.indexOf(`\n${heading}\n`);
  if (h < 0) return `${readme.trimEnd()}\n\n${heading}\n\n${block}\n`;
  // Insert at the end of the heading's section (before the next heading of the same level).
  const level = heading.match(/^#+/)?.[0] ?? "##";
  const rest = readme.slice(h + heading.length + 2);
  const next = rest.search(new RegExp(`\\n${level} `));
  const at = next < 0 ? readme.length : h + heading.length + 2 + next;
  return `${readme.slice(0, at).trimEnd()}\n\n${block}\n${readme.slice(at)}`;
}
