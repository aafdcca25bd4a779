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
 * (worker/search/entry-lookup.ts). The manifests are read in worker/search/entry-manifests.ts.
 */
import { SOURCE_EXT_RE, type EntryFile } from "./entry-manifests";

export { asksForEntryPoint } from "./readers/entry-question";
export { declaredEntries, ENTRY_MANIFEST_NAMES, folderOf, MAX_MANIFEST_DEPTH, resolveDeclared, type EntryFile, type EntryTier } from "./entry-manifests";

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

/** Conventional entry file names relative to a package root: [pattern, what it is]. */
const CONVENTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:src\/)?(?:main|lib)\.rs$/, "convention src/main.rs, src/lib.rs"],
  [/^src\/bin\/[^/]+\.rs$/, "convention src/bin/*.rs"],
  [/^(?:cmd\/[^/]+\/)?main\.go$/, "convention main.go, cmd/*/main.go"],
  [/^(?:src\/)?(?:index|main|app)\.[^./]+$/, "convention index.*, main.*, app.* at a package root or in its src/"],
];

/**
 * The conventional entry files among `paths` (source files only, not tests or tooling):
 * `__main__.py` anywhere, the CONVENTIONS relative to a package root of `roots` (folders with a
 * trailing slash, `` the repo root: the folders holding a manifest).
 */
export function conventionalEntries(paths: Iterable<string>, isTest: (path: string) => boolean, roots: readonly string[] = [""]): EntryFile[] {
  const out: EntryFile[] = [];
  for (const path of paths) {
    if (!SOURCE_EXT_RE.test(path) || isTest(path) || isToolingPath(path)) continue;
    if (/(?:^|\/)__main__\.py$/.test(path)) {
      out.push({ path, tier: "conventional", source: "convention __main__.py" });
      continue;
    }
    for (const root of roots) {
      const hit = path.startsWith(root) ? CONVENTIONS.find(([re]) => re.test(path.slice(root.length))) : undefined;
      if (hit) {
        out.push({ path, tier: "conventional", source: hit[1] });
        break;
      }
    }
  }
  return out;
}
