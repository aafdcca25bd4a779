/**
 * Skip rules decided by a file's path alone (before its content is read). Pure.
 *
 * Decisions worth knowing:
 * - `.env` and `.env.*` are secrets, except the templates `.env.example`, `.env.sample`,
 *   `.env.template` and `.env.dist`: they document configuration and rarely hold real values;
 *   the content scan (content-rules.ts) still drops one that holds a known token format.
 * - `third_party/`, `vendor/`, `dist/` (and the other VENDORED_DIRS) are treated as vendored or
 *   build output wherever they occur in the path; a project that keeps its own sources there
 *   loses them (a `!` rule in `.gitignore` cannot bring them back).
 * - `target/` is build output only beside a build file that writes there (BUILD_OUTPUT_DIRS:
 *   `Cargo.toml`, `pom.xml`, `build.sbt`, `project.clj` in the same folder). Elsewhere it is a
 *   plain folder (sphinx keeps 58 test modules in `tests/roots/test-ext-autodoc/target/`); its
 *   output, if any, is normally gitignored.
 * - `build/` and `out/` are NOT in that list: many repositories commit hand-written build scripts
 *   there (hono's `build/build.ts`, VS Code's `build/`), while build output in them is almost
 *   always gitignored, and bundles that slip through are caught as minified or generated.
 * - Files without an extension (Dockerfile, Makefile, LICENSE ...) pass: there is no allowlist
 *   of extensions; binary content is caught by content-rules.ts instead.
 * - Framework and tool output folders (`.next/`, `.nuxt/`, `.output/`, `.svelte-kit/`, `_site/`,
 *   `.docusaurus/`, `storybook-static/`, `bazel-*`, `cmake-build-*`, `.dart_tool/`,
 *   `elm-stuff/`, `.stack-work/`, `.serverless/`, `.yarn/releases/`, `.vercel/output/`,
 *   `.angular/cache/`) are `vendored` wherever they occur: tools write them, people do not.
 * - `env.<stage>` without the leading dot (`config/env.production`) is a secret like `.env.*`,
 *   but only for stage-like suffixes: `env.ts`, `env.py` and `env.d.ts` are code.
 *
 * Every decision carries a rule id (`dir:node_modules`, `name:.envrc`, `ext:.pem` ...), which
 * the skipped-files listing shows beside the reason.
 */
import { extensionOf, secretNameRule } from "./secret-names";
import type { Skip } from "./skip-reason";

/** Directory names whose whole subtree is dependencies or build output. */
export const VENDORED_DIRS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "bower_components",
  "jspm_packages",
  "vendor",
  "third_party",
  "dist",
  "coverage",
  ".nyc_output",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".tox",
  ".venv",
  "venv",
  ".gradle",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".parcel-cache",
  ".cache",
  ".wrangler",
  ".terraform",
  "Pods",
  "DerivedData",
  ".output",
  "_site",
  ".docusaurus",
  "storybook-static",
  ".dart_tool",
  "elm-stuff",
  ".stack-work",
  ".serverless",
]);

/**
 * Of these folders only the named subfolder is output; the rest is configuration a project
 * commits (`.yarn/plugins/` is loaded code too, but `.yarn/releases/` is Yarn itself).
 */
const OUTPUT_SUBDIRS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [".yarn", new Set(["releases", "cache", "unplugged", "sdks"])],
  [".vercel", new Set(["output"])],
  [".angular", new Set(["cache"])],
]);

/** Folder name prefixes of build trees (Bazel's output symlinks, CLion's CMake build folders). */
const OUTPUT_DIR_PREFIXES: readonly string[] = ["bazel-", "cmake-build-"];

/**
 * Directory names that are build output only when their parent folder holds one of the listed
 * build files (Cargo, Maven, sbt and Leiningen all write to `target/` next to their manifest).
 */
export const BUILD_OUTPUT_DIRS: ReadonlyMap<string, readonly string[]> = new Map([["target", ["Cargo.toml", "pom.xml", "build.sbt", "project.clj"]]]);

/** Lockfiles: machine-written dependency pins (large, no code). Compared case-sensitively. */
export const LOCKFILES: ReadonlySet<string> = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  "deno.lock",
  "Cargo.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "pdm.lock",
  "Gemfile.lock",
  "composer.lock",
  "go.sum",
  "go.work.sum",
  "mix.lock",
  "pubspec.lock",
  "Podfile.lock",
  "Package.resolved",
  "packages.lock.json",
  "flake.lock",
  "gradle.lockfile",
  "conan.lock",
]);

/** Generated-code naming conventions (protobuf, gRPC, Dart build_runner, .NET designers ...). */
const GENERATED_NAME =
  /(\.pb\.(go|cc|h|swift|dart)|_pb2(_grpc)?\.pyi?|_pb\.(js|d\.ts)|_grpc_pb\.(js|d\.ts)|\.pb\.gw\.go|_generated\.[^/]+|\.generated\.[^/]+|\.g\.dart|\.freezed\.dart|\.designer\.cs|\.g\.cs|\.(js|css|mjs|cjs)\.map)$/i;

/** Yarn Plug'n'Play's generated resolver and loader (`.pnp.cjs`, `.pnp.js`, `.pnp.loader.mjs`). */
const PNP_NAME = /^\.pnp\.(c?js|loader\.mjs|data\.json)$/;

/** Minified bundles by name. Minified files without such a name are caught by line length. */
const MINIFIED_NAME = /[.-]min\.(js|mjs|cjs|css)$/i;

/** Extensions (lower-cased) of formats that are never text: skipped without reading the blob. */
const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  ".png",
  ".jpg",
  ".jpeg",
  ".gif",
  ".bmp",
  ".ico",
  ".icns",
  ".webp",
  ".avif",
  ".tif",
  ".tiff",
  ".psd",
  ".heic",
  ".pdf",
  ".zip",
  ".gz",
  ".tgz",
  ".bz2",
  ".xz",
  ".zst",
  ".7z",
  ".rar",
  ".tar",
  ".jar",
  ".war",
  ".class",
  ".exe",
  ".dll",
  ".so",
  ".dylib",
  ".o",
  ".a",
  ".lib",
  ".obj",
  ".pyc",
  ".pyo",
  ".wasm",
  ".bin",
  ".dat",
  ".woff",
  ".woff2",
  ".ttf",
  ".otf",
  ".eot",
  ".mp3",
  ".mp4",
  ".m4a",
  ".wav",
  ".ogg",
  ".flac",
  ".avi",
  ".mov",
  ".webm",
  ".mkv",
  ".sqlite",
  ".sqlite3",
  ".db",
  ".parquet",
  ".npy",
  ".pkl",
  ".onnx",
  ".pt",
  ".ckpt",
  ".safetensors",
  ".iso",
  ".dmg",
  ".apk",
  ".ipa",
  ".deb",
  ".rpm",
  ".node",
]);

/** The output-folder rule for path segment `i`, or null. */
function outputDirRule(segments: readonly string[], i: number): string | null {
  const seg = segments[i];
  const sub = OUTPUT_SUBDIRS.get(seg);
  if (sub) return i + 1 < segments.length - 1 && sub.has(segments[i + 1]) ? `dir:${seg}/${segments[i + 1]}` : null;
  if (VENDORED_DIRS.has(seg)) return `dir:${seg}`;
  const prefix = OUTPUT_DIR_PREFIXES.find((p) => seg.startsWith(p));
  return prefix ? `dir:${prefix}*` : null;
}

/**
 * Classifies a repo-relative path by name. Returns the first matching reason in the order
 * vendored, secret, lockfile, minified, generated, binary; or null. `hasFile(path)` tells
 * whether the tree holds a file (for BUILD_OUTPUT_DIRS); without it such folders are kept.
 */
export function classifyPath(path: string, hasFile: (path: string) => boolean = () => false): Skip | null {
  const segments = path.split("/");
  const name = segments[segments.length - 1];
  for (let i = 0; i < segments.length - 1; i++) {
    const dirRule = outputDirRule(segments, i);
    if (dirRule) return { reason: "vendored", rule: dirRule };
    const manifests = BUILD_OUTPUT_DIRS.get(segments[i]);
    if (manifests) {
      const parent = segments
        .slice(0, i)
        .map((s) => `${s}/`)
        .join("");
      if (manifests.some((m) => hasFile(`${parent}${m}`))) return { reason: "vendored", rule: `build-output:${segments[i]}` };
    }
  }
  // `.aws/credentials`, `.docker/config.json`, `.kube/config`, `.ssh/*`: known credential locations.
  const parent = segments.length > 1 ? segments[segments.length - 2] : "";
  if (
    parent === ".ssh" ||
    (parent === ".aws" && name === "credentials") ||
    (parent === ".docker" && name === "config.json") ||
    (parent === ".kube" && name === "config")
  ) {
    return { reason: "secret", rule: `path:${parent}/${parent === ".ssh" ? "*" : name}` };
  }
  const secret = secretNameRule(name);
  if (secret) return { reason: "secret", rule: secret };
  if (LOCKFILES.has(name)) return { reason: "lockfile", rule: `name:${name}` };
  if (MINIFIED_NAME.test(name)) return { reason: "minified", rule: "name:*.min.*" };
  if (PNP_NAME.test(name)) return { reason: "generated", rule: "name:.pnp" };
  if (GENERATED_NAME.test(name)) return { reason: "generated", rule: "name:generated-suffix" };
  const ext = extensionOf(name);
  if (BINARY_EXTENSIONS.has(ext)) return { reason: "binary", rule: `ext:${ext}` };
  return null;
}
