/**
 * @module worker/search/frame-paths
 *
 * Which repo file a stack frame's path names (frameMatch): installed packages, the standard
 * libraries and pseudo-paths name none, `node_modules/<name>/` names a file only in the repo
 * publishing `<name>`; and which frame of a trace counts as where it surfaced (innermostPick:
 * the innermost naming a file, past throw helpers). Pure; worker/search/stack-trace.ts uses it.
 */
import type { RepoPackage } from "../../indexer/store/contract";
import { commonTailSegments } from "./channels/path";
import type { StackFrame } from "./stack-frames";

/** Directories under which installed packages live: what follows starts with the package's own name. */
const PACKAGE_ROOT_RE = /^(?:.*\/)?(?:site-packages|dist-packages|node_modules)\/(.+)$/;
/** An npm package's installed file, innermost `node_modules/` (pnpm's `.pnpm/x@1/node_modules/x/` too): group 1 starts with its name. */
const NODE_MODULES_RE = /^(?:.*\/)?node_modules\/(.+)$/;
/**
 * Directories that hold one installed package each, named for it (and its version), with the
 * package's files laid out as in its repo: Ruby gems (`gems/rack-2.2.3/lib/rack/builder.rb`,
 * `nokogiri-1.15.4-x86_64-linux`), Bundler's git checkouts (`bundler/gems/rails-8f3c2a1b4d5e/`),
 * the Cargo registry (`registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.193/src/de.rs`)
 * and its git checkouts (`git/checkouts/tokio-377c595163f99a10/c4f2a2b/tokio/src/lib.rs`), the Go
 * module cache (`pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go`; `-trimpath` prints
 * `github.com/gin-gonic/gin@v1.9.1/context.go`), Composer's `vendor/<vendor>/<package>/` for a
 * PHP file (`vendor/slim/slim/Slim/App.php`; Go's `vendor/github.com/...` holds module paths of
 * any depth and keeps the general rule). Groups: the package's name, the file's path in it.
 */
const PACKAGE_DIR_RES = [
  /^(?:.*\/)?bundler\/gems\/([^/]+)-[0-9a-f]{7,40}\/(.+)$/,
  /^(?:.*\/)?gems\/([^/]+?)-\d+(?:\.[0-9A-Za-z]+)*(?:-[\w.-]+)?\/(.+)$/,
  /^(?:.*\/)?registry\/src\/[^/]+-[0-9a-f]{16}\/([^/]+?)-\d+\.\d+\.\d+[^/]*\/(.+)$/,
  /^(?:.*\/)?git\/checkouts\/([^/]+)-[0-9a-f]{16}\/[0-9a-f]{7,40}\/(.+)$/,
  /^(?:.*\/)?([^/@]+)@[^/]*\/(.+\.(?:go|s))$/,
  /^(?:.*\/)?vendor\/[^/]+\/([^/]+)\/(.+\.(?:php\d?|phtml|inc))$/,
];
/** A Python standard-library directory (`/usr/lib/python3.11/`, `lib/python3.9/`), with no package root below it. */
const STDLIB_RE = /(?:^|\/)lib\/python\d+(?:\.\d+)?\//;
/**
 * A Go standard-library file: under a GOROOT's `src/` (`/usr/local/go/src/`, `/usr/lib/go-1.21/src/`,
 * `sdk/go1.21.0/src/`, Homebrew's `libexec/src/`, Bazel's `GOROOT/src/`, a toolchain Go fetched
 * itself, `pkg/mod/golang.org/toolchain@v0.0.1-go1.22.0.linux-amd64/src/`), whose import path's
 * first element has no dot (`net/http`; a GOPATH's `go/src/github.com/...` has one).
 */
const GO_STDLIB_RE = /(?:^|\/)(?:\$?GOROOT|[Gg]o|go-?\d+(?:\.\d+)*|libexec|toolchain@v[^/]*)\/src\/[^/.]+\/(?:[^/]+\/)*[^/]+\.(?:go|s)$/;
/** The Rust standard library: `/rustc/<commit>/library/std/src/...` as backtraces print it, or a toolchain's `rust-src`. */
const RUST_STD_RE = /^\/rustc\/[0-9a-f]{7,40}\/|\/lib\/rustlib\/src\/rust\//;
/** A name a runtime gives code that has no file: `<frozen importlib._bootstrap>`, `<string>`, Ruby's `(eval)`, Node's `[eval]`. */
const PSEUDO_PATH_RE = /^[<([]/;

/** Where a frame's path enters an installed package (installedFile). */
interface InstalledFile {
  /** Segments a repo path must end with to be the file: from the package's name on. */
  tail: string[];
  /** For a package directory (PACKAGE_DIR_RES), the file's path inside the package (`lib/rack/builder.rb`). */
  inPackage: string | null;
}

/**
 * The installed package a frame's path is in, the innermost when packages nest (the match
 * leaving the shortest path), or null. A versioned directory's name loses its version
 * (`rack-2.2.3` -> `rack`, `gin@v1.9.1` -> `gin`).
 */
function installedFile(framePath: string): InstalledFile | null {
  let best: InstalledFile | null = null;
  let bestRest = Infinity;
  const pkg = PACKAGE_ROOT_RE.exec(framePath);
  if (pkg) [best, bestRest] = [{ tail: pkg[1].split("/"), inPackage: null }, pkg[1].length];
  for (const re of PACKAGE_DIR_RES) {
    const m = re.exec(framePath);
    if (!m || m[2].length >= bestRest) continue;
    [best, bestRest] = [{ tail: [m[1], ...m[2].split("/")], inPackage: m[2] }, m[2].length];
  }
  return best;
}

/**
 * Whether a frame's path can name no repo file: a pseudo-path, or a standard library (Go's,
 * Rust's, Python's when no installed package is below it: `lib/python3.9/site-packages/`).
 */
export const namesNoFile = (framePath: string) =>
  PSEUDO_PATH_RE.test(framePath) || GO_STDLIB_RE.test(framePath) || RUST_STD_RE.test(framePath) || (STDLIB_RE.test(framePath) && !installedFile(framePath));

/**
 * The repo path an npm frame names in the repo that publishes its package: the path after
 * `node_modules/<name>/` under the package's folder (`node_modules/express/lib/response.js` ->
 * `lib/response.js` for `express` at the root, `node_modules/@acme/server/lib/x.js` ->
 * `packages/server/lib/x.js` for `@acme/server` in `packages/server`). Null when the frame is
 * not in one of `packages`. An npm package installs its files as its folder holds them (no
 * build output is mapped back: `dist/` stays `dist/`).
 */
function ownPackagePath(framePath: string, packages: readonly RepoPackage[]): string | null {
  if (!packages.length) return null;
  const m = NODE_MODULES_RE.exec(framePath);
  if (!m) return null;
  for (const p of packages) {
    if (!m[1].startsWith(`${p.name}/`)) continue;
    const rest = m[1].slice(p.name.length + 1);
    return p.folder ? `${p.folder}/${rest}` : rest;
  }
  return null;
}

/**
 * How well a frame's `framePath` names the repo file `path`: the number of trailing path
 * segments they share (more is a better match; equal paths match fully), or 0 when it does not
 * name it. A frame under an installed-package directory (`site-packages/`, `node_modules/`)
 * names a repo file only if everything from the package name on is the file's path or its tail
 * (`site-packages/_pytest/config/__init__.py` names `src/_pytest/config/__init__.py`, while
 * `site-packages/myplugin/config/__init__.py` names nothing). So does a frame in a package
 * directory (Ruby gems, the Cargo registry, the Go module cache, Composer's `vendor/`), the
 * directory's name without its version (`gems/activesupport-7.1.2/lib/active_support/cache.rb`
 * names `activesupport/lib/active_support/cache.rb`), and it also names the file at its path in
 * the package (`lib/rack/builder.rb`, `vendor/slim/slim/Slim/App.php` names `Slim/App.php`):
 * such packages install their sources as their repos hold them, so that is the repo being the
 * package. A frame of a standard library (Python's, Go's
 * `/usr/local/go/src/`, Rust's `/rustc/<commit>/library/`) and a pseudo-path
 * (`<frozen importlib._bootstrap>`, `<string>`) name nothing; any other path needs at least its
 * last two segments to agree (`/Users/a/sympy/sympy/core/numbers.py` names
 * `sympy/core/numbers.py`; a bare `mod.py` names only a top-level `mod.py`). In a repo that
 * publishes the npm package (`packages`, its RepoPackage rows), a frame under
 * `node_modules/<name>/` also names the file at the path after the name in the package's folder
 * (ownPackagePath: `node_modules/express/lib/response.js` names `lib/response.js` in express's
 * repo), as fully as an equal path; a Python distribution needs no such rule, its import package
 * keeps its folder name in the repo (`src/_pytest/`). Case-sensitive, as paths are.
 */
export function frameMatch(framePath: string, path: string, packages: readonly RepoPackage[] = []): number {
  return matchFramePath(readFramePath(framePath, packages), path);
}

/** What frameMatch needs of a frame's path, read once per frame: its regexes then run once, not once per candidate file. */
interface FramePath {
  path: string;
  namesNoFile: boolean;
  installed: InstalledFile | null;
  /** The segments a repo path's tail is compared with. */
  segments: string[];
  /** The repo path it names as the repo's own npm package's file (ownPackagePath), or null. */
  ownPath: string | null;
}

function readFramePath(framePath: string, packages: readonly RepoPackage[] = []): FramePath {
  const installed = installedFile(framePath);
  return {
    path: framePath,
    namesNoFile: namesNoFile(framePath),
    installed,
    segments: installed ? installed.tail : framePath.split("/"),
    ownPath: ownPackagePath(framePath, packages),
  };
}

/**
 * A frame path read once per repo (readFramePath with that repo's packages): its regexes then
 * run once per frame and repo, not once per candidate file.
 */
export function frameReader(framePath: string, packagesOf: (repo: string | undefined) => readonly RepoPackage[]): (repo: string | undefined) => FramePath {
  const read = new Map<string | undefined, FramePath>();
  return (repo) => {
    let frame = read.get(repo);
    if (!frame) read.set(repo, (frame = readFramePath(framePath, packagesOf(repo))));
    return frame;
  };
}

/**
 * Whether `folder` is where a workspace keeps package `name`: a folder named for the package, or
 * for its last `-`/`_` parts (Cargo's `grep-searcher` in `crates/searcher/`, a Go module `s3` in
 * `service/s3/`, a gem `rack-session` in `rack-session/`), or the package's name in another case
 * without its `-`/`_` (Composer's `symfony/http-kernel` in `src/Symfony/Component/HttpKernel/`,
 * `illuminate/support` in `src/Illuminate/Support/`).
 */
function inWorkspaceFolder(name: string, folder: string | undefined): boolean {
  if (!folder) return false;
  const squash = (s: string) => s.replace(/[-_]/g, "").toLowerCase();
  return folder === name || name.endsWith(`-${folder}`) || name.endsWith(`_${folder}`) || squash(folder) === squash(name);
}

/** frameMatch of a frame path read by readFramePath. */
export function matchFramePath(frame: FramePath, path: string): number {
  const p = path.split("/");
  if (frame.path === path || frame.ownPath === path) return p.length;
  if (frame.namesNoFile) return 0;
  const inPackage = frame.installed?.inPackage;
  if (inPackage === path) return p.length;
  if (inPackage && path.endsWith(`/${inPackage}`) && inWorkspaceFolder(frame.installed!.tail[0], p[p.length - inPackage.split("/").length - 1])) {
    return inPackage.split("/").length + 1;
  }
  const f = frame.segments;
  if (f[f.length - 1] !== p[p.length - 1]) return 0;
  const n = commonTailSegments(f, p);
  if (frame.installed) return n === f.length ? n : 0;
  return n >= 2 || (n === p.length && p.length === 1) ? n : 0;
}

/**
 * Functions that only throw (raise, panic) what their caller found wrong, by name: `throw*`,
 * `rethrow*`, `raise*` (`throw_format_error`, `ThrowIfNull`, `raiseError`), `*Rethrow` and
 * `*OrThrow` (.NET's `GetResultOrRethrow`), and `fail`, `panic`, `abort`, `die`, `fatal`, `bail`,
 * `invariant`, `assert`, `unreachable`, `report_error` (fmt's one-line `FMT_THROW`) as whole
 * names. `must*` is not one: Go's `MustGet` checks what it panics on.
 */
const THROW_HELPER_RE =
  /^_*(?:(?:[Rr]e)?[Tt]hrow|[Rr]aise)(?:[A-Z_]|$)|^_*(?:[Ff]ail|[Pp]anic|[Aa]bort|[Dd]ie|[Ff]atal|[Bb]ail|[Ii]nvariant|[Aa]ssert|[Uu]nreachable|[Rr]eport_?[Ee]rror)$|[a-z](?:Rethrow|OrThrow)$/;

/**
 * Whether a frame's function is a throw helper (THROW_HELPER_RE), read from its last segment
 * without template arguments (`fmt::v12::report_error`, `Outcome`1.GetResultOrRethrow`).
 */
export function isThrowHelper(symbol: string | null): boolean {
  if (!symbol) return false;
  let name = symbol;
  for (let i = 0; i < 8 && name.includes("<"); i++) name = name.replace(/<[^<>]*>/g, "");
  return THROW_HELPER_RE.test(name.split(/::|->|[.#]/).pop()!);
}

/**
 * The innermost frame for which `pick` finds something (a file, a chunk), past throw helpers
 * (isThrowHelper) when an outer frame has something too: the error was thrown in the helper but
 * found in its caller. Null when no frame has anything.
 */
export function innermostPick<T>(frames: StackFrame[], pick: (frame: StackFrame) => T | null): T | null {
  let helper: T | null = null;
  for (const f of frames) {
    const found = pick(f);
    if (found === null) continue;
    if (!isThrowHelper(f.symbol)) return found;
    helper ??= found;
  }
  return helper;
}

/** Packages by repo id (RepoTarget.packages), for frames under `node_modules/`. */
export type RepoPackages = ReadonlyMap<string, readonly RepoPackage[]>;

export const packagesIn = (packages: RepoPackages | undefined) => (repo: string | undefined) => (repo === undefined ? undefined : packages?.get(repo)) ?? [];
