/**
 * Builds the web page's browser code: bundles and minifies each entry of web/client/ (real
 * TypeScript, type-checked by tsconfig.web.json) and web/client/styles.css with esbuild, and
 * writes web/assets/bundle.gen.ts, the module the Worker serves them from (web/app.ts).
 *
 * Splitting: each page is one file holding all the code it runs before its first draw (the
 * small helpers it shares with the other pages are copied: a few KB, and one request fewer on
 * the path to the first result than a shared chunk). The highlighter, highlight.js core with
 * web/client/highlight.ts, is one file shared by the pages, and every highlight.js language is
 * its own chunk, imported when a page shows code of that language (web/client/language-loaders.ts).
 * The answer renderer (marked and DOMPurify, web/client/answer-markdown.ts) is another such
 * file, imported by the ask tab when an answer arrives.
 * Every file name carries a content hash (`search-<hash>.js`, `highlight-<hash>.js`,
 * `chunk-<hash>.js`, `styles-<hash>.css`), so assets are served immutable and a repeat visit
 * sends no request for them (not even a revalidation); a deploy changes the names the pages
 * refer to. The generated module maps each entry to its file, lists per entry the files it
 * imports statically (the source view: the highlighter) and those it imports after its first
 * draw (the search page: the highlighter); the pages name both in `<link rel="modulepreload">`,
 * so the browser fetches them beside the entry instead of after it. It also names the chunk
 * of each highlight.js language.
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
import { build, type BuildOptions, type Metafile, type OutputFile, type Plugin } from "esbuild";

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
  /** Entry name (search, source, repos) -> the shared files it imports statically, transitively. */
  entryImports: Record<string, string[]>;
  /**
   * Entry name -> the shared files it imports dynamically (and theirs statically), other than
   * the highlight.js languages: code it runs after its first draw (the highlighter on the
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

/** esbuild options both builds share. */
const COMMON = {
  bundle: true,
  minify: true,
  format: "esm",
  metafile: true,
  target: ["chrome110", "firefox115", "safari16"],
  outdir: "/out",
  write: false,
  legalComments: "none",
  charset: "utf8",
  logLevel: "silent",
} satisfies BuildOptions;

/** The highlighter module (highlight.js core and web/client/highlight.ts), shared by the pages. */
const HIGHLIGHTER_ENTRY = join(ROOT, "web", "client", "highlight.ts");
/** How the pages import it (web/client/ files import "./highlight"). */
const HIGHLIGHTER_SPECIFIER = /^\.\/highlight$/;
/** The answer renderer (marked and DOMPurify with web/client/answer-markdown.ts): loaded by the ask tab when an answer arrives. */
const MARKDOWN_ENTRY = join(ROOT, "web", "client", "answer-markdown.ts");
/** How the ask tab imports it (web/client/ask.ts imports "./answer-markdown"). */
const MARKDOWN_SPECIFIER = /^\.\/answer-markdown$/;
/** How a highlight.js language is imported (web/client/language-loaders.ts). */
const LANGUAGE_SPECIFIER = /^highlight\.js\/lib\/languages\/([a-z0-9-]+)$/;

function toAssets(files: OutputFile[]): BuiltAsset[] {
  return files.map((f) => {
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
}

const base = (p: string) => p.slice(p.lastIndexOf("/") + 1);

/**
 * Bundles every entry and the stylesheet; returns the assets and manifest (does not write
 * anything). Two builds: first the highlighter (split: highlight.js core with
 * web/client/highlight.ts in one file, each language in a chunk of its own), then each page
 * entry as one file that imports the highlighter and the language chunks by their built names
 * (external), so that everything a page needs before its first draw is one request, while the
 * highlighter is still fetched once for all pages.
 */
export async function bundleWeb(): Promise<WebBundle> {
  refuseHtmlSinks();
  const shared = await build({
    ...COMMON,
    entryPoints: [HIGHLIGHTER_ENTRY, MARKDOWN_ENTRY],
    splitting: true,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
  });
  const sharedOutputs = new Map(Object.entries(shared.metafile.outputs).map(([p, o]) => [base(p), o]));
  const languageChunks: Record<string, string> = {};
  let highlighterFile = "";
  let markdownFile = "";
  for (const [name, o] of sharedOutputs) {
    if (o.entryPoint && /web\/client\/highlight\.ts$/.test(o.entryPoint)) highlighterFile = name;
    if (o.entryPoint && /web\/client\/answer-markdown\.ts$/.test(o.entryPoint)) markdownFile = name;
    for (const input of Object.keys(o.inputs)) {
      const m = /highlight\.js\/es\/languages\/([a-z0-9-]+)\.js$/.exec(input);
      if (m && name.startsWith("chunk-")) languageChunks[m[1]] = name;
    }
  }
  if (!highlighterFile) throw new Error("scripts/build-web.ts: the highlighter build produced no highlight-*.js");
  const externals: Plugin = {
    name: "shared-highlighter",
    setup(b) {
      b.onResolve({ filter: HIGHLIGHTER_SPECIFIER }, () => ({ path: `./${highlighterFile}`, external: true }));
      b.onResolve({ filter: MARKDOWN_SPECIFIER }, () => ({ path: `./${markdownFile}`, external: true }));
      b.onResolve({ filter: LANGUAGE_SPECIFIER }, (args) => {
        const chunk = languageChunks[LANGUAGE_SPECIFIER.exec(args.path)![1]];
        if (!chunk) throw new Error(`scripts/build-web.ts: no chunk for ${args.path}`);
        return { path: `./${chunk}`, external: true };
      });
    },
  };
  const pages = await build({
    ...COMMON,
    entryPoints: [...WEB_ENTRIES.map((e) => join(ROOT, "web", "client", `${e}.ts`)), join(ROOT, "web", "client", "styles.css")],
    entryNames: "[name]-[hash]",
    plugins: [externals],
  });
  return {
    assets: [...toAssets(pages.outputFiles), ...toAssets(shared.outputFiles)],
    manifest: manifestOf(pages.metafile, sharedOutputs, languageChunks),
  };
}

/** The manifest from the two builds' metafiles (output paths are relative to the cwd, e.g. `../../out/x.js`). */
function manifestOf(pages: Metafile, sharedOutputs: Map<string, Metafile["outputs"][string]>, languageChunks: Record<string, string>): BundleManifest {
  const languageChunkNames = new Set(Object.values(languageChunks));
  // A shared file and the shared files it imports statically.
  const withStaticImports = (name: string): string[] => {
    const seen = new Set([name]);
    for (const file of seen) for (const i of sharedOutputs.get(file)?.imports ?? []) if (i.kind === "import-statement") seen.add(base(i.path));
    return [...seen];
  };
  const entryFiles: Record<string, string> = {};
  const entryImports: Record<string, string[]> = {};
  const entryLazyImports: Record<string, string[]> = {};
  for (const [path, o] of Object.entries(pages.outputs)) {
    const m = o.entryPoint ? /web\/client\/([a-z-]+)\.(ts|css)$/.exec(o.entryPoint) : null;
    if (!m) continue;
    const entry = m[1];
    entryFiles[entry] = base(path);
    const eager = new Set<string>();
    const lazy = new Set<string>();
    for (const i of o.imports) {
      if (!i.external || languageChunkNames.has(base(i.path))) continue;
      for (const f of withStaticImports(base(i.path))) (i.kind === "dynamic-import" ? lazy : eager).add(f);
    }
    entryImports[entry] = [...eager];
    entryLazyImports[entry] = [...lazy].filter((f) => !eager.has(f));
  }
  for (const e of WEB_ENTRIES) entryImports[e] ??= [];
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
