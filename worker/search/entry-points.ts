/**
 * @module worker/search/entry-points
 *
 * Where a program starts, as its repository declares it. A question such as "where is the main
 * entry point" or "where does the CLI start" shares its words with build scripts (`entryPoints`
 * of an esbuild call, a bundler's `main` field) more than with the file it asks for, whose text
 * rarely says "entry". The repository itself says which files are its entries, so they are read
 * from it, never from a query or a benchmark:
 *
 * - declared, in root manifests: `package.json` `main`, `module`, `browser`, `bin` and the `.`
 *   export (a build output such as `dist/cjs/index.js` is mapped back to the source that the
 *   tree holds, `src/index.ts`); `jsr.json` / `deno.json` exports; `pyproject.toml`
 *   `[project.scripts]`, `[project.gui-scripts]`, `[tool.poetry.scripts]`; `setup.py` and
 *   `setup.cfg` `console_scripts`; `Cargo.toml` `[[bin]]` and `[lib]` paths;
 * - by a `main` function (Go's `func main`, Java's `public static void main`, Rust, C, C#'s
 *   `Main`), found in the symbol table;
 * - by convention: `__main__.py`, Cargo's `src/main.rs`, `src/lib.rs`, `src/bin/*.rs`, Go's
 *   `main.go` and `cmd/<name>/main.go`, and `index.*`, `main.*`, `app.*` at the root or in `src/`.
 *
 * Build and tooling scripts (`build/`, `scripts/`, `tools/`, bundler and test-runner configs,
 * `Makefile`, Cargo's `build.rs`, `setup.py` itself) start the build, not the program: for such a
 * question they are what a reader does not want, and the confidence gate says so when they are
 * all a search found. Pure: the caller reads the manifests, symbols and file list
 * (worker/search/entry-lookup.ts).
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

/** Root manifests read for declared entries. */
export const ENTRY_MANIFEST_PATHS: readonly string[] = [
  "package.json",
  "jsr.json",
  "deno.json",
  "deno.jsonc",
  "pyproject.toml",
  "setup.py",
  "setup.cfg",
  "Cargo.toml",
];

/**
 * Phrases by which a question asks where a program starts. "main" alone is not one ("the main
 * router"), nor is "start" ("the start of the line"); "main function/file/module/entry",
 * "entry point", "bootstrap", "where does X start/begin" and "starting point" are.
 */
const ENTRY_INTENT_RE = new RegExp(
  [
    String.raw`\bentry[\s-]?points?\b`,
    String.raw`\bentry (?:file|module|script)s?\b`,
    String.raw`\bmain (?:entry|function|file|module|program|script|method|executable|binary|package)s?\b`,
    String.raw`\bmain\(\)`,
    String.raw`\bbootstrap(?:s|ped|ping)?\b`,
    String.raw`\bstart(?:ing)? ?points?\b`,
    String.raw`\bwhere (?:does|do|is|are) (?:the )?(?:\w+ ){0,2}(?:start|starts|begin|begins|launched|started|boot|boots)\b`,
    String.raw`\b(?:program|application|app|server|cli|process|execution) (?:starts?|begins?|boots?)\b`,
  ].join("|"),
  "i",
);

/** Whether a question (not a pasted report) asks where the program starts. */
export function asksForEntryPoint(question: string): boolean {
  return ENTRY_INTENT_RE.test(question);
}

/** Extensions of source files an entry can be (manifests and prose cannot). */
const SOURCE_EXT_RE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|scala|rb|php|cs|c|cc|cpp|cxx|swift|lua|ex|exs)$/i;

/** Source extensions tried, in order, for a declared build output whose source the tree holds. */
const SOURCE_FOR_OUTPUT = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];

/** Leading folders of build outputs (`dist/cjs/index.js`): removed to find the source. */
const OUTPUT_DIRS = new Set(["dist", "build", "out", "lib", "es", "esm", "cjs", "umd", "types", "module", "commonjs", "mjs", "node"]);

/** Top-level folders whose scripts run the build, the tests or the release, not the program (`src/build/` may be a build tool's own source). */
const TOOLING_DIRS = new Set([
  "build",
  "scripts",
  "script",
  "tools",
  "tooling",
  "tasks",
  "ci",
  ".github",
  ".circleci",
  ".husky",
  "benchmarks",
  "bench",
  "perf",
]);
/** Folders that hold tooling at any depth (`perf-measures/bundle-check/scripts/check.ts`). */
const TOOLING_DIRS_ANY_DEPTH = new Set(["scripts", ".github", ".circleci", ".husky"]);

/** File names of build, test and lint configuration and task runners. */
const TOOLING_FILE_RE =
  /^(?:[\w.-]+\.config\.[cm]?[jt]s|gulpfile\.[cm]?[jt]s|gruntfile\.[cm]?[jt]s|jakefile\.[cm]?[jt]s|makefile|gnumakefile|dockerfile|build\.rs|setup\.py|noxfile\.py|tasks\.py|fabfile\.py|conftest\.py|build\.gradle(?:\.kts)?|rakefile|justfile)$/i;

/** Whether `path` is a build, test or release script or configuration (TOOLING_DIRS at its root, TOOLING_DIRS_ANY_DEPTH, TOOLING_FILE_RE). */
export function isToolingPath(path: string): boolean {
  const segments = path.split("/");
  const name = segments[segments.length - 1];
  if (TOOLING_FILE_RE.test(name)) return true;
  if (segments.length > 1 && TOOLING_DIRS.has(segments[0].toLowerCase())) return true;
  return segments.slice(0, -1).some((d) => TOOLING_DIRS_ANY_DEPTH.has(d.toLowerCase()));
}

const stripDot = (p: string) => p.replace(/^\.\//, "").replace(/^\/+/, "");

/**
 * The repo path a manifest's file reference names: the path itself when the tree has it, else,
 * for a build output (`dist/cjs/index.js`, `./lib/esm/index.mjs`, `dist/types/index.d.ts`), the
 * source the tree holds under `src/` or the root with the output folders removed and a source
 * extension (`src/index.ts`). Null when nothing matches.
 */
export function resolveDeclared(ref: string, paths: ReadonlySet<string>): string | null {
  const p = stripDot(ref.trim());
  if (!p) return null;
  if (paths.has(p)) return p;
  const segments = p.split("/");
  while (segments.length > 1 && OUTPUT_DIRS.has(segments[0].toLowerCase())) segments.shift();
  const rest = segments.join("/").replace(/\.d\.[cm]?ts$/, ".js");
  const stem = rest.replace(/\.[cm]?[jt]sx?$/, "");
  for (const dir of ["src/", ""]) {
    for (const ext of SOURCE_FOR_OUTPUT) {
      const candidate = `${dir}${stem}${ext}`;
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

/** Declared references of a package.json / jsr.json / deno.json: [field, reference]. */
function jsManifestRefs(name: string, pkg: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const field of ["main", "module", "browser"]) {
    const v = pkg[field];
    if (typeof v === "string") out.push([`${name} ${field}`, v]);
  }
  const bin = pkg.bin;
  if (typeof bin === "string") out.push([`${name} bin`, bin]);
  else if (bin && typeof bin === "object") for (const [k, v] of Object.entries(bin)) if (typeof v === "string") out.push([`${name} bin ${k}`, v]);
  for (const ref of mainExport(pkg.exports)) out.push([`${name} exports "."`, ref]);
  return out;
}

/** A Python `module.path:function` reference's candidate files (`a/b.py`, `a/b/__init__.py`, under the root or `src/`). */
function pythonModuleFiles(ref: string): string[] {
  const module = ref.split(":")[0].trim();
  if (!/^[\w.]+$/.test(module)) return [];
  const rel = module.replace(/\./g, "/");
  return ["", "src/"].flatMap((dir) => [`${dir}${rel}.py`, `${dir}${rel}/__init__.py`, `${dir}${rel}/__main__.py`]);
}

/** `[section] name -> "module:function"` tables of a parsed pyproject.toml. */
function pyprojectScripts(doc: Record<string, unknown>): [string, string][] {
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
      if (target) out.push([`pyproject.toml ${label} ${name}`, target]);
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

/** `[[bin]]` and `[lib]` paths of a parsed Cargo.toml. */
function cargoTargets(doc: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  const lib = doc.lib as { path?: unknown } | undefined;
  if (typeof lib?.path === "string") out.push(["Cargo.toml [lib]", lib.path]);
  const bins = Array.isArray(doc.bin) ? doc.bin : [];
  for (const b of bins as { path?: unknown; name?: unknown }[])
    if (typeof b?.path === "string") out.push([`Cargo.toml [[bin]] ${String(b.name ?? "")}`.trim(), b.path]);
  return out;
}

function tomlOf(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * The entries the root manifests declare, resolved to files of the tree (`paths`). A manifest
 * that is missing or malformed declares nothing; never throws.
 */
export function declaredEntries(manifests: ReadonlyMap<string, string>, paths: ReadonlySet<string>): EntryFile[] {
  const out: EntryFile[] = [];
  const add = (source: string, path: string | null) => {
    if (path && SOURCE_EXT_RE.test(path) && !out.some((e) => e.path === path)) out.push({ path, tier: "declared", source });
  };
  for (const name of ["jsr.json", "deno.json", "deno.jsonc", "package.json"]) {
    const pkg = parseJsonObject(manifests.get(name));
    if (pkg) for (const [source, ref] of jsManifestRefs(name, pkg)) add(source, resolveDeclared(ref, paths));
  }
  const pyproject = tomlOf(manifests.get("pyproject.toml"));
  const pyRefs = [
    ...(pyproject ? pyprojectScripts(pyproject) : []),
    ...["setup.py", "setup.cfg"].flatMap((f) => (manifests.has(f) ? setupScripts(f, manifests.get(f)!) : [])),
  ];
  for (const [source, ref] of pyRefs) add(source, pythonModuleFiles(ref).find((p) => paths.has(p)) ?? null);
  const cargo = tomlOf(manifests.get("Cargo.toml"));
  if (cargo) for (const [source, ref] of cargoTargets(cargo)) add(source, paths.has(stripDot(ref)) ? stripDot(ref) : null);
  return out;
}

/** Conventional entry file names: [pattern over the whole path, what it is]. */
const CONVENTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?:^|\/)__main__\.py$/, "convention __main__.py"],
  [/^(?:src\/)?(?:main|lib)\.rs$/, "convention src/main.rs, src/lib.rs"],
  [/^src\/bin\/[^/]+\.rs$/, "convention src/bin/*.rs"],
  [/^(?:cmd\/[^/]+\/)?main\.go$/, "convention main.go, cmd/*/main.go"],
  [/^(?:src\/)?(?:index|main|app)\.[^./]+$/, "convention index.*, main.*, app.* at the root or in src/"],
];

/** The conventional entry files among `paths` (source files only, not tests or tooling). */
export function conventionalEntries(paths: Iterable<string>, isTest: (path: string) => boolean): EntryFile[] {
  const out: EntryFile[] = [];
  for (const path of paths) {
    if (!SOURCE_EXT_RE.test(path) || isTest(path) || isToolingPath(path)) continue;
    const hit = CONVENTIONS.find(([re]) => re.test(path));
    if (hit) out.push({ path, tier: "conventional", source: hit[1] });
  }
  return out;
}
