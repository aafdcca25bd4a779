/**
 * `createFileFilter`: the walk filter used by ingestion (git trees and archives alike). Pure.
 */
import { classifyContents, type ContentVerdict } from "./content-rules";
import { createGitignoreMatcher, type IgnoreFile } from "./gitignore";
import { classifyPath } from "./path-rules";
import { unsafePathRule } from "./path-safety";
import { MAX_PATH_CHARS, type Skip } from "./skip-reason";

/** Options of `createFileFilter`. */
export interface FileFilterOptions {
  /** Size cap in bytes; larger files are `too_large` (config `MAX_FILE_BYTES`, default 1 MiB). */
  maxFileBytes: number;
  /**
   * Every `.gitignore` of the tree, `path` repo-relative like `src/.gitignore`. Pass none when
   * every entry is tracked (a git tree; an upload whose client listed files with `git
   * ls-files`): git applies ignore rules to untracked files only.
   */
  ignoreFiles: IgnoreFile[];
  /**
   * Every path of the tree. Lets `target/` count as build output beside a `Cargo.toml`,
   * `pom.xml`, `build.sbt` or `project.clj` (path-rules.ts, BUILD_OUTPUT_DIRS); without it
   * `target/` is an ordinary folder.
   */
  paths?: Iterable<string>;
}

/** A tree entry as listed before reading its blob. `mode` is git's octal mode as a string ("100644") or number. */
export interface FilterEntry {
  path: string;
  mode: string | number;
  size: number;
}

/** The two checks, in the order ingestion runs them. */
export interface FileFilter {
  /** By path, mode and size, before the blob is read. Null means "read it and call checkContent". */
  checkEntry(e: FilterEntry): Skip | null;
  /**
   * By content: the size cap again, encoding / binary, secrets, generated code, minified. Gives
   * the skip, or the decoded text to index.
   */
  checkContent(path: string, bytes: Uint8Array): Promise<ContentVerdict>;
  /** `checkContent` for many files, in order; faster per file (one secretlint pass). */
  checkContents(files: readonly { path: string; bytes: Uint8Array }[]): Promise<ContentVerdict[]>;
}

/** Octal git mode as a string: isomorphic-git's `walk` gives numbers (0o100644), `readTree` strings. */
function modeString(mode: string | number): string {
  return typeof mode === "number" ? mode.toString(8) : mode.replace(/^0+/, "");
}

/** Regular-file modes git records (644 / 755 appear in some older trees). */
const FILE_MODES: ReadonlySet<string> = new Set(["100644", "100755", "100664", "644", "755"]);

/**
 * Builds the filter for one tree. Rules and their order (the first that applies is the reason):
 * symlink / submodule / unsupported mode, unsafe characters in the path (path-safety.ts),
 * path longer than MAX_PATH_CHARS, `.gitignore`
 * (nested, with negation), vendored or output dir (`target/` only beside its build file),
 * secret name, lockfile, minified name, generated name, binary extension, size cap; then by
 * content: encoding / binary, secret, generated (header, bundle, schema), minified lines.
 * @example
 *   const filter = createFileFilter({ maxFileBytes: 1 << 20, ignoreFiles: [{ path: ".gitignore", content: "*.log\n" }] });
 *   filter.checkEntry({ path: "app.log", mode: "100644", size: 10 }); // {reason: "ignored", rule: "gitignore"}
 */
export function createFileFilter(o: FileFilterOptions): FileFilter {
  const isIgnored = createGitignoreMatcher(o.ignoreFiles);
  const tree = new Set(o.paths ?? []);
  const hasFile = (p: string) => tree.has(p);
  return {
    checkEntry(e) {
      const mode = modeString(e.mode);
      if (mode === "120000") return { reason: "symlink", rule: "mode:120000" };
      if (mode === "160000") return { reason: "submodule", rule: "mode:160000" };
      if (!FILE_MODES.has(mode)) return { reason: "unsupported", rule: `mode:${mode}` };
      const path = e.path.replace(/^\.\//, "");
      const unsafe = unsafePathRule(path);
      if (unsafe) return { reason: "unsafe_path", rule: unsafe };
      if (path.length > MAX_PATH_CHARS) return { reason: "path_too_long", rule: `path>${MAX_PATH_CHARS}` };
      if (isIgnored(path)) return { reason: "ignored", rule: "gitignore" };
      const byName = classifyPath(path, hasFile);
      if (byName) return byName;
      if (e.size > o.maxFileBytes) return { reason: "too_large", rule: `size>${o.maxFileBytes}` };
      return null;
    },
    async checkContent(path, bytes) {
      return (await this.checkContents([{ path, bytes }]))[0];
    },
    async checkContents(files) {
      const tooLarge = (bytes: Uint8Array) => bytes.length > o.maxFileBytes;
      const rest = await classifyContents(files.filter((f) => !tooLarge(f.bytes)));
      let next = 0;
      return files.map((f) => (tooLarge(f.bytes) ? { skip: { reason: "too_large", rule: `size>${o.maxFileBytes}` } } : rest[next++]));
    },
  };
}
