/**
 * @module worker/search/entry-manifests
 *
 * The entries a repository declares in its manifests (worker/search/entry-points.ts says what an
 * entry is and finds the rest by `main` functions and conventions): `package.json` `main`,
 * `module`, `browser`, `bin`, the `.` export and what `npm start` runs; `jsr.json` / `deno.json`
 * exports; `pyproject.toml` `[project.scripts]`, `[project.gui-scripts]`,
 * `[tool.poetry.scripts]`; `setup.py` and `setup.cfg` `console_scripts`; `Cargo.toml` `[[bin]]`
 * and `[lib]` paths. A declared build output (`dist/cjs/index.js`) is mapped back to the source
 * the tree holds (`src/index.ts`). Pure: the caller reads the manifests' text.
 */
import { parse as parseToml } from "smol-toml";

/** How a file came to be an entry, strongest first. */
export type EntryTier = "declared" | "main" | "conventional";

/** An entry file of a snapshot: its path, how it is known, and what said so (for `explain` and docs). */
export interface EntryFile {
  path: string;
  tier: EntryTier;
  /** What declared it: `package.json exports "."`, `pyproject.toml [project.scripts] flask`, `func main`, `convention src/index.*`. */
  source: string;
}

/** Manifest file names read for declared entries; `go.mod` declares none but marks a package root for the conventions. */
export const ENTRY_MANIFEST_NAMES: readonly string[] = [
  "package.json",
  "jsr.json",
  "deno.json",
  "deno.jsonc",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "Cargo.toml",
  "go.mod",
];
/** Deepest folder a manifest is read from: the root and two levels (`api/`, `packages/server/`), where monorepos keep their packages. */
export const MAX_MANIFEST_DEPTH = 2;

/** Extensions of source files an entry can be (manifests and prose cannot). */
export const SOURCE_EXT_RE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|scala|rb|php|cs|c|cc|cpp|cxx|swift|lua|ex|exs)$/i;

/** Source extensions tried, in order, for a declared build output whose source the tree holds. */
const SOURCE_FOR_OUTPUT = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** Leading folders of build outputs (`dist/cjs/index.js`): removed to find the source. */
const OUTPUT_DIRS = new Set(["dist", "build", "out", "lib", "es", "esm", "cjs", "umd", "types", "module", "commonjs", "mjs", "node"]);

const stripDot = (p: string) => p.replace(/^\.\//, "").replace(/^\/+/, "");

/**
 * The repo path a manifest's file reference names, relative to the manifest's `folder` (`api/`,
 * or `` at the root): the path itself when the tree has it, else, for a build output
 * (`dist/cjs/index.js`, `./lib/esm/index.mjs`, `dist/types/index.d.ts`), the source the tree
 * holds under `src/` or the folder itself with the output folders removed and a source extension
 * (`src/index.ts`). Null when nothing matches (or the reference climbs out with `..`).
 */
export function resolveDeclared(ref: string, paths: ReadonlySet<string>, folder = ""): string | null {
  const p = stripDot(ref.trim());
  if (!p || p.split("/").includes("..")) return null;
  if (paths.has(folder + p)) return folder + p;
  const segments = p.split("/");
  while (segments.length > 1 && OUTPUT_DIRS.has(segments[0].toLowerCase())) segments.shift();
  const rest = segments.join("/").replace(/\.d\.[cm]?ts$/, ".js");
  const stem = rest.replace(/\.[cm]?[jt]sx?$/, "");
  for (const dir of ["src/", ""]) {
    for (const ext of SOURCE_FOR_OUTPUT) {
      const candidate = `${folder}${dir}${stem}${ext}`;
      if (paths.has(candidate)) return candidate;
    }
  }
  return null;
}

function parseJsonObject(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  const attempt = (t: string) => {
    try {
      const v: unknown = JSON.parse(t);
      return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  };
  const clean = text.replace(/^\uFEFF/, "");
  // deno.jsonc allows comments; strip whole-line ones before giving up.
  return attempt(clean) ?? attempt(clean.replace(/^\s*\/\/.*$/gm, ""));
}

/** Every string of a conditional export value (`{import, require, types}` nested any depth), types last. */
function exportTargets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(exportTargets);
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return [...entries.filter(([k]) => k !== "types"), ...entries.filter(([k]) => k === "types")].flatMap(([, v]) => exportTargets(v));
  }
  return [];
}

/** The main export of an `exports` field: the string, the `.` key, or the conditions object itself. */
function mainExport(exports: unknown): string[] {
  if (typeof exports === "string" || Array.isArray(exports)) return exportTargets(exports);
  if (!exports || typeof exports !== "object") return [];
  const record = exports as Record<string, unknown>;
  if ("." in record) return exportTargets(record["."]);
  return Object.keys(record).some((k) => k.startsWith(".")) ? [] : exportTargets(record);
}

/** The script file a package.json run script starts: `node dist/server.js`, `tsx watch src/main.ts`, `bun run app.ts`. */
const RUN_SCRIPT_RE = /^(?:node|nodemon|tsx|ts-node|ts-node-esm|bun|deno)\b(?:\s+(?:run|watch|-{1,2}[\w-]+(?:=\S+)?))*\s+(\S+\.[cm]?[jt]sx?)(?:\s|$)/;

/** Declared references of a package.json / jsr.json / deno.json (`file` is its path): [what declared it, reference]. */
function jsManifestRefs(file: string, pkg: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const field of ["main", "module", "browser"]) {
    const v = pkg[field];
    if (typeof v === "string") out.push([`${file} ${field}`, v]);
  }
  const bin = pkg.bin;
  if (typeof bin === "string") out.push([`${file} bin`, bin]);
  else if (bin && typeof bin === "object") for (const [k, v] of Object.entries(bin)) if (typeof v === "string") out.push([`${file} bin ${k}`, v]);
  for (const ref of mainExport(pkg.exports)) out.push([`${file} exports "."`, ref]);
  // What `npm start` (or `npm run dev` / `serve`) runs.
  const scripts = pkg.scripts && typeof pkg.scripts === "object" ? (pkg.scripts as Record<string, unknown>) : {};
  for (const script of ["start", "dev", "serve"]) {
    const cmd = scripts[script];
    const m = typeof cmd === "string" ? RUN_SCRIPT_RE.exec(cmd.trim()) : null;
    if (m) out.push([`${file} scripts.${script}`, m[1]]);
  }
  return out;
}

/** A Python `module.path:function` reference's candidate files (`a/b.py`, `a/b/__init__.py`, under the manifest's folder or its `src/`). */
function pythonModuleFiles(ref: string, folder: string): string[] {
  const module = ref.split(":")[0].trim();
  if (!/^[\w.]+$/.test(module)) return [];
  const rel = module.replace(/\./g, "/");
  return ["", "src/"].flatMap((dir) => [`${folder}${dir}${rel}.py`, `${folder}${dir}${rel}/__init__.py`, `${folder}${dir}${rel}/__main__.py`]);
}

/** `[section] name -> "module:function"` tables of a parsed pyproject.toml (`file` is its path). */
function pyprojectScripts(doc: Record<string, unknown>, file: string): [string, string][] {
  const at = (obj: unknown, ...keys: string[]): unknown =>
    keys.reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), obj);
  const out: [string, string][] = [];
  for (const [label, table] of [
    ["[project.scripts]", at(doc, "project", "scripts")],
    ["[project.gui-scripts]", at(doc, "project", "gui-scripts")],
    ["[tool.poetry.scripts]", at(doc, "tool", "poetry", "scripts")],
  ] as const) {
    if (!table || typeof table !== "object") continue;
    for (const [name, ref] of Object.entries(table as Record<string, unknown>)) {
      const target =
        typeof ref === "string" ? ref : typeof (ref as { reference?: unknown })?.reference === "string" ? (ref as { reference: string }).reference : null;
      if (target) out.push([`${file} ${label} ${name}`, target]);
    }
  }
  return out;
}

/** `name = module:function` lines of `console_scripts` / `gui_scripts` in setup.py or setup.cfg (read by pattern, not executed). */
function setupScripts(file: string, text: string): [string, string][] {
  const at = text.search(/(?:console|gui)_scripts/);
  if (at < 0) return [];
  const out: [string, string][] = [];
  const re = /["']?\s*([\w.-]+)\s*=\s*([\w.]+:[\w.]+)/g;
  // Only the entries after the key, up to the next section or closing bracket of the list.
  const tail = text.slice(at);
  const end = tail.search(/\n\[|\]\s*[,}]/);
  for (const m of (end > 0 ? tail.slice(0, end + 1) : tail).matchAll(re)) out.push([`${file} console_scripts ${m[1]}`, m[2]]);
  return out;
}

/** `[[bin]]` and `[lib]` paths of a parsed Cargo.toml (`file` is its path). */
function cargoTargets(doc: Record<string, unknown>, file: string): [string, string][] {
  const out: [string, string][] = [];
  const lib = doc.lib as { path?: unknown } | undefined;
  if (typeof lib?.path === "string") out.push([`${file} [lib]`, lib.path]);
  const bins = Array.isArray(doc.bin) ? doc.bin : [];
  for (const b of bins as { path?: unknown; name?: unknown }[])
    if (typeof b?.path === "string") out.push([`${file} [[bin]] ${String(b.name ?? "")}`.trim(), b.path]);
  return out;
}

function tomlOf(text: string): Record<string, unknown> | null {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The folder of a path with its trailing slash (`api/` for `api/package.json`, `` at the root). */
export function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i + 1);
}

/** Order in which one folder's manifests are read: a Deno export names the source itself, package.json often a build output. */
const MANIFEST_ORDER = ["jsr.json", "deno.json", "deno.jsonc", "package.json", "pyproject.toml", "setup.py", "setup.cfg", "Cargo.toml"];

/**
 * The entries the manifests declare (`manifests`: path -> text, at the root or in package
 * folders), each reference resolved against its manifest's folder to a file of the tree
 * (`paths`): the root's first, then shallower folders, then by folder name. A malformed
 * manifest declares nothing; never throws.
 */
export function declaredEntries(manifests: ReadonlyMap<string, string>, paths: ReadonlySet<string>): EntryFile[] {
  const out: EntryFile[] = [];
  const add = (source: string, path: string | null) => {
    if (path && SOURCE_EXT_RE.test(path) && !out.some((e) => e.path === path)) out.push({ path, tier: "declared", source });
  };
  const order = (p: string) => MANIFEST_ORDER.indexOf(p.slice(folderOf(p).length));
  const manifestsInOrder = [...manifests.keys()]
    .filter((p) => order(p) >= 0)
    .sort((a, b) => a.split("/").length - b.split("/").length || (folderOf(a) < folderOf(b) ? -1 : folderOf(a) > folderOf(b) ? 1 : order(a) - order(b)));
  for (const file of manifestsInOrder) {
    const folder = folderOf(file);
    const name = file.slice(folder.length);
    const text = manifests.get(file)!;
    if (/\.jsonc?$/.test(name)) {
      const pkg = parseJsonObject(text);
      for (const [source, ref] of pkg ? jsManifestRefs(file, pkg) : []) add(source, resolveDeclared(ref, paths, folder));
    } else if (name === "Cargo.toml") {
      const doc = tomlOf(text);
      for (const [source, ref] of doc ? cargoTargets(doc, file) : []) add(source, resolveDeclared(ref, paths, folder));
    } else {
      const doc = name === "pyproject.toml" ? tomlOf(text) : null;
      const refs = name === "pyproject.toml" ? (doc ? pyprojectScripts(doc, file) : []) : setupScripts(file, text);
      for (const [source, ref] of refs) add(source, pythonModuleFiles(ref, folder).find((p) => paths.has(p)) ?? null);
    }
  }
  return out;
}
