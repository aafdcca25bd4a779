/**
 * The Worker bundle's size as `wrangler deploy --dry-run` prints it, and the README block that
 * states it with the Cloudflare plan it needs (scripts/bundle-size.ts writes the block). Pure.
 */

/**
 * Cloudflare's limit on a Worker's compressed (gzip) size, KiB: 3 MB on the Free plan, 10 MB on
 * Workers Paid (developers.cloudflare.com/workers/platform/limits/#worker-size), read as MiB.
 */
export const WORKER_GZIP_LIMIT_KIB = { free: 3 * 1024, paid: 10 * 1024 } as const;

/** Sizes in KiB. */
export interface BundleSize {
  totalKiB: number;
  gzipKiB: number;
}

/**
 * Reads `Total Upload: 20452.51 KiB / gzip: 4112.92 KiB` from wrangler's output.
 * @throws Error quoting the output's tail when the line is absent (wrangler failed or changed).
 */
export function parseBundleSize(output: string): BundleSize {
  const m = /Total Upload:\s*([\d.,]+)\s*KiB\s*\/\s*gzip:\s*([\d.,]+)\s*KiB/.exec(output);
  if (!m) throw new Error(`no "Total Upload: ... KiB / gzip: ... KiB" line in wrangler's output:\n${output.slice(-2000)}`);
  const num = (s: string) => Number(s.replace(/,/g, ""));
  return { totalKiB: num(m[1]), gzipKiB: num(m[2]) };
}

/** The plan a bundle of `gzipKiB` needs: "free", "paid", or null when it exceeds both limits. */
export function planFor(gzipKiB: number): "free" | "paid" | null {
  return gzipKiB <= WORKER_GZIP_LIMIT_KIB.free ? "free" : gzipKiB <= WORKER_GZIP_LIMIT_KIB.paid ? "paid" : null;
}

/** A group of the bundle's modules and its gzip size (KiB), e.g. the tree-sitter grammars. */
export interface BundlePart {
  name: string;
  gzipKiB: number;
}

/**
 * Groups the files of `wrangler deploy --outdir` (name -> gzip KiB; source maps are not
 * uploaded and are left out) into the Worker's JavaScript, the tree-sitter wasm, Swagger UI and
 * the rest, largest first.
 */
export function bundleParts(files: Record<string, number>): BundlePart[] {
  const groups: Record<string, number> = {};
  for (const [file, kib] of Object.entries(files)) {
    if (file.endsWith(".map")) continue;
    const name = /tree-sitter.*\.wasm$/.test(file)
      ? "tree-sitter runtime and grammars (wasm)"
      : /swagger-ui/.test(file)
        ? "Swagger UI for /api/docs"
        : /\.m?js$/.test(file)
          ? "the Worker's JavaScript (libraries included)"
          : "other modules (prompts, data files)";
    groups[name] = (groups[name] ?? 0) + kib;
  }
  return Object.entries(groups)
    .map(([name, gzipKiB]) => ({ name, gzipKiB }))
    .sort((a, b) => b.gzipKiB - a.gzipKiB);
}

/** The README block (markdown) for `size` and its `parts`, measured at `commit` on `date` (YYYY-MM-DD). */
export function bundleSizeBlock(size: BundleSize, commit: string, date: string, parts: BundlePart[] = []): string {
  const kib = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const plan = planFor(size.gzipKiB);
  const verdict =
    plan === "free"
      ? "within the Free plan's 3 MB limit"
      : plan === "paid"
        ? "above the Free plan's 3 MB limit, so it needs **Workers Paid** (10 MB)"
        : "above even Workers Paid's 10 MB limit: it cannot be deployed as is";
  const split = parts.length ? ` Of it (each part gzipped alone): ${parts.map((p) => `${p.name} ${kib(p.gzipKiB)} KiB`).join(", ")}.` : "";
  return (
    `The Worker bundle is **${kib(size.gzipKiB)} KiB gzip** (${kib(size.totalKiB)} KiB before compression), ${verdict}; ` +
    `measured by \`npm run docs:bundle-size\` (\`wrangler deploy --dry-run --env production\`) at ${commit} on ${date}.${split}`
  );
}
