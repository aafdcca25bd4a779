/**
 * @module indexer/filter
 *
 * Which files of a tree get indexed. `createFileFilter` combines nested `.gitignore` rules,
 * path rules (vendored, secrets, lockfiles, generated, minified, binary extensions), a size
 * cap, and content rules (binary bytes, private keys and tokens, generated headers, minified
 * lines). Every skip has a `SkipReason` that the repo status counts.
 */
export { createFileFilter, type FileFilter, type FileFilterOptions, type FilterEntry } from "./file-filter";
export { SKIP_REASONS, type SkipReason } from "./skip-reason";
export { createGitignoreMatcher, type IgnoreFile } from "./gitignore";
export { BUILD_OUTPUT_DIRS, classifyPath, isSecretName, LOCKFILES, VENDORED_DIRS } from "./path-rules";
export { classifyContent, containsSecret, hasGeneratedHeader, isBinaryContent, isMinifiedText } from "./content-rules";
