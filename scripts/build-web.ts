/**
 * Builds the web page's browser code: bundles and minifies each entry of web/client/ (real
 * TypeScript, type-checked by tsconfig.web.json) and web/client/styles.css with esbuild, and
 * writes web/assets/bundle.gen.ts, the module the Worker serves them from (web/app.ts).
 *
 * Code splitting: code shared by several entries (highlight.js core, the API helpers) goes
 * into one chunk instead of being copied into each entry, and every highlight.js language is
 * its own chunk, imported when a page shows code of that language (web/client/highlight.ts).
 * Every file name carries a content hash (`search-<hash>.js`, `chunk-<hash>.js`,
 * `styles-<hash>.css`), so assets are served immutable and a repeat visit sends no request for
 * them (not even a revalidation); a deploy changes the names the pages refer to. The
 * generated module maps each entry to its file, lists per entry the chunks it imports
 * statically and those it imports dynamically (highlight.js core on the search page, run after
 * the first results are drawn; the pages name both in `<link rel="modulepreload">`, so the
 * browser fetches them beside the entry instead of after it), and names the chunk of each
 * highlight.js language.
 *
 * Run by `npm start` / `npm run dev` / `wrangler deploy` (wrangler.toml `[build]`), by the
 * tests (vitest globalSetup test/build-web.ts) and by `npm run typecheck`. The generated file
 * is not committed. `node scripts/build-web.ts [--quiet]`.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Browser entry points: served as /assets/<name>-<hash>.js (ENTRY_FILES of the generated module). */
export const WEB_ENTRIES = ["search", "source", "repos"] as const;
/** Where the generated module goes. */
export const BUNDLE_MODULE = join(ROOT, "web", "assets", "bundle.gen.ts");

/** One served asset: its bytes as text, content type, strong ETag and gzip size (bytes). */
export interface BuiltAsset {
  name: string;
  type: string;
  body: string;
  etag: string;
  gzipBytes: number;
}

/** What the pages need to know about the bundle's shape. */
export interface BundleManifest {
  /** Entry name (search, source, repos, styles) -> its file name. */
  entryFiles: Record<string, string>;
  /** Entry name (search, source, repos) -> the chunks it imports statically, transitively. */
  entryImports: Record<string, string[]>;
  /**
   * Entry name -> the chunks it imports dynamically (and theirs statically), other than the
   * highlight.js languages: code it runs after its first draw (highlight.js core on the
   * search page), which the page preloads so that it is in the cache by then.
   */
  entryLazyImports: Record<string, string[]>;
  /** highlight.js language name -> its chunk. */
  languageChunks: Record<string, string>;
}

/** A built bundle: the assets and the manifest. */
export interface WebBundle {
  assets: BuiltAsset[];
  manifest: BundleManifest;
}

/** DOM sinks that parse HTML; the page's own code must not use them (text goes in via textContent). */
const HTML_SINKS = /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment)\b/;

/** Throws naming the file when web/client/ code uses an HTML sink. */
function refuseHtmlSinks(): void {
  const dir = join(ROOT, "web", "client");
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".ts") || name.endsWith(".test.ts")) continue;
    const m = HTML_SINKS.exec(readFileSync(join(dir, name), "utf8"));
    if (m) throw new Error(`web/client/${name} uses ${m[1]}; build DOM with el() / textContent instead (web/client/dom.ts).`);
  }
}

/** Bundles every entry and the stylesheet; returns the assets and manifest (does not write anything). */
export async function bundleWeb(): Promise<WebBundle> {
  refuseHtmlSinks();
  const result = await build({
    entryPoints: [...WEB_ENTRIES.map((e) => join(ROOT, "web", "client", `${e}.ts`)), join(ROOT, "web", "client", "styles.css")],
    bundle: true,
    minify: true,
    format: "esm",
    splitting: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    metafile: true,
    target: ["chrome110", "firefox115", "safari16"],
    outdir: "/out",
    write: false,
    legalComments: "none",
    charset: "utf8",
    logLevel: "silent",
  });
  const assets = result.outputFiles.map((f) => {
    const name = f.path.slice("/out/".length);
    const body = f.text;
    return {
      name,
      type: name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
      body,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
      gzipBytes: gzipSync(body, { level: 9 }).length,
    };
  });
  return { assets, manifest: manifestOf(result.metafile) };
}

/** The manifest from esbuild's metafile (output paths are relative to the cwd, e.g. `../../out/x.js`). */
function manifestOf(meta: Metafile): BundleManifest {
  const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);
  const outputs = new Map(Object.entries(meta.outputs).map(([p, o]) => [base(p), o]));
  const staticImports = (name: string, seen = new Set<string>()): string[] => {
    for (const i of outputs.get(name)?.imports ?? []) {
      if (i.kind !== "import-statement" || seen.has(base(i.path))) continue;
      seen.add(base(i.path));
      staticImports(base(i.path), seen);
    }
    return [...seen];
  };
  const entryFiles: Record<string, string> = {};
  for (const [name, o] of outputs) {
    const m = o.entryPoint ? /web\/client\/([a-z-]+)\.(ts|css)$/.exec(o.entryPoint) : null;
    // Dynamically imported modules have an entryPoint too; they are chunks, not entries.
    if (m && !name.startsWith("chunk-")) entryFiles[m[1]] = name;
  }
  const languageChunks: Record<string, string> = {};
  for (const [name, o] of outputs) {
    for (const input of Object.keys(o.inputs)) {
      const m = /highlight\.js\/es\/languages\/([a-z0-9-]+)\.js$/.exec(input);
      if (m && name.startsWith("chunk-")) languageChunks[m[1]] = name;
    }
  }
  const languageChunkNames = new Set(Object.values(languageChunks));
  const entryImports: Record<string, string[]> = {};
  const entryLazyImports: Record<string, string[]> = {};
  for (const e of WEB_ENTRIES) {
    entryImports[e] = staticImports(entryFiles[e]);
    const lazy = new Set<string>();
    for (const file of [entryFiles[e], ...entryImports[e]]) {
      for (const i of outputs.get(file)?.imports ?? []) {
        const target = base(i.path);
        if (i.kind !== "dynamic-import" || languageChunkNames.has(target) || entryImports[e].includes(target)) continue;
        for (const chunk of [target, ...staticImports(target)]) if (chunk !== entryFiles[e] && !entryImports[e].includes(chunk)) lazy.add(chunk);
      }
    }
    entryLazyImports[e] = [...lazy];
  }
  return { entryFiles, entryImports, entryLazyImports, languageChunks };
}

/** Bundles and returns the assets only (page weight, tests). */
export async function bundleWebAssets(): Promise<BuiltAsset[]> {
  return (await bundleWeb()).assets;
}

/** Writes web/assets/bundle.gen.ts when its content changed (so watchers do not loop). */
export async function buildWebAssets(): Promise<BuiltAsset[]> {
  const { assets, manifest } = await bundleWeb();
  const entries = assets.map(
    (a) => `  ${JSON.stringify(a.name)}: { type: ${JSON.stringify(a.type)}, etag: ${JSON.stringify(a.etag)}, body: ${JSON.stringify(a.body)} },`,
  );
  const text = [
    "// Generated by scripts/build-web.ts from web/client/; do not edit, do not commit.",
    "/** The web page's bundled scripts and stylesheet by file name (served under /assets/). */",
    "export const WEB_ASSETS: Record<string, { type: string; etag: string; body: string }> = {",
    ...entries,
    "};",
    "/** Entry name (search, source, repos, styles) -> its file under /assets/. */",
    `export const ENTRY_FILES: Record<string, string> = ${JSON.stringify(manifest.entryFiles)};`,
    "/** Per entry, the chunks it imports statically (for modulepreload). */",
    `export const ENTRY_IMPORTS: Record<string, string[]> = ${JSON.stringify(manifest.entryImports)};`,
    "/** Per entry, the chunks it imports dynamically after its first draw, highlight.js languages aside (also modulepreloaded). */",
    `export const ENTRY_LAZY_IMPORTS: Record<string, string[]> = ${JSON.stringify(manifest.entryLazyImports)};`,
    "/** highlight.js language name -> its chunk. */",
    `export const LANGUAGE_CHUNKS: Record<string, string> = ${JSON.stringify(manifest.languageChunks)};`,
    "",
  ].join("\n");
  mkdirSync(dirname(BUNDLE_MODULE), { recursive: true });
  let old = "";
  try {
    old = readFileSync(BUNDLE_MODULE, "utf8");
  } catch {
    // first build
  }
  if (old !== text) writeFileSync(BUNDLE_MODULE, text);
  return assets;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const assets = await buildWebAssets();
  if (!process.argv.includes("--quiet")) {
    for (const a of assets.filter((x) => !x.name.startsWith("chunk-"))) console.log(`web asset ${a.name}: ${a.body.length} B, ${a.gzipBytes} B gzip`);
    const chunks = assets.filter((x) => x.name.startsWith("chunk-"));
    console.log(`${chunks.length} chunks (shared code and one per highlight.js language): ${chunks.reduce((n, a) => n + a.gzipBytes, 0)} B gzip in all`);
  }
}
