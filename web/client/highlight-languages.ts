/**
 * Which highlight.js language shows each index language (indexer/chunk/languages.ts). Pure
 * data: the browser's highlighter (highlight.ts) and the server-rendered source page (which
 * preloads the language's chunk) both read it.
 */

/** Index language name -> highlight.js language name. */
const LANGUAGES: Record<string, string> = {
  typescript: "typescript",
  tsx: "typescript",
  javascript: "javascript",
  python: "python",
  go: "go",
  rust: "rust",
  java: "java",
  c: "c",
  cpp: "cpp",
  csharp: "csharp",
  ruby: "ruby",
  php: "php",
  kotlin: "kotlin",
  swift: "swift",
  scala: "scala",
  lua: "lua",
  json: "json",
  yaml: "yaml",
  toml: "ini",
  sql: "sql",
  shell: "bash",
  makefile: "makefile",
  dockerfile: "dockerfile",
  cmake: "cmake",
  css: "css",
  html: "xml",
  xml: "xml",
  markdown: "markdown",
  graphql: "graphql",
  protobuf: "protobuf",
};

/** The highlight.js language for an index language, or undefined (shown as plain text). */
export function highlightLanguage(indexLanguage: string | undefined): string | undefined {
  return indexLanguage && Object.hasOwn(LANGUAGES, indexLanguage.toLowerCase()) ? LANGUAGES[indexLanguage.toLowerCase()] : undefined;
}
