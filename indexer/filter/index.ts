/**
 * @module indexer/filter
 *
 * Which files of a tree get indexed. `createFileFilter` combines nested `.gitignore` rules,
 * path rules (vendored, secrets, lockfiles, generated, minified, binary extensions), a size
 * cap, and content rules (binary bytes, private keys and tokens, generated headers, minified
 * lines, bundles, encodings). Every skip has a `SkipReason` that the repo status counts and a
 * rule id that the skipped-files listing shows.
 */
export { createFileFilter, type FileFilter, type FileFilterOptions, type FilterEntry } from "./file-filter";
export { MAX_PATH_CHARS, SKIP_REASONS, type Skip, type SkipReason } from "./skip-reason";
export { escapeUnsafePath, unsafePathRule } from "./path-safety";
export { secretRuleMatch, SECRET_RULES, type SecretRule } from "./secret-rules";
export { createGitignoreMatcher, type IgnoreFile } from "./gitignore";
export { BUILD_OUTPUT_DIRS, classifyPath, LOCKFILES, VENDORED_DIRS } from "./path-rules";
export { isSecretName, secretNameRule } from "./secret-names";
export {
  classifyContent,
  containsSecret,
  findSecret,
  generatedRule,
  hasGeneratedHeader,
  isBinaryContent,
  isMinifiedText,
  secretPatternRule,
  type ContentVerdict,
} from "./content-rules";
export { decodeText, isDecoded, type DecodedText } from "./decode";
