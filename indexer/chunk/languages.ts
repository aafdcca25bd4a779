/**
 * @module indexer/chunk/languages
 *
 * Maps a file path (and, for `.h`, its text) to a language name. Languages with a tree-sitter
 * grammar get syntax-aware chunks; markdown is split by headings; everything else becomes line
 * windows.
 */
import { headerLanguage } from "./header-language";

/** Languages parsed with a tree-sitter grammar (see grammars.ts). */
export const GRAMMAR_LANGUAGES = ["typescript", "tsx", "javascript", "python", "go", "rust", "java", "c", "cpp", "csharp", "ruby", "php"] as const;

/** A language with a tree-sitter grammar. */
export type GrammarLanguage = (typeof GRAMMAR_LANGUAGES)[number];

const BY_EXTENSION: Record<string, string> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  py: "python",
  pyi: "python",
  go: "go",
  rs: "rust",
  java: "java",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  "c++": "cpp",
  hh: "cpp",
  hpp: "cpp",
  hxx: "cpp",
  ipp: "cpp",
  cs: "csharp",
  rb: "ruby",
  rake: "ruby",
  gemspec: "ruby",
  php: "php",
  md: "markdown",
  mdx: "markdown",
  markdown: "markdown",
  yml: "yaml",
  yaml: "yaml",
  json: "json",
  jsonc: "json",
  json5: "json",
  toml: "toml",
  sql: "sql",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  fish: "shell",
  mk: "makefile",
  dockerfile: "dockerfile",
  html: "html",
  htm: "html",
  css: "css",
  scss: "css",
  less: "css",
  xml: "xml",
  proto: "protobuf",
  graphql: "graphql",
  gql: "graphql",
  kt: "kotlin",
  kts: "kotlin",
  swift: "swift",
  scala: "scala",
  lua: "lua",
  txt: "text",
  rst: "text",
};

const BY_NAME: Record<string, string> = {
  dockerfile: "dockerfile",
  containerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  rakefile: "ruby",
  gemfile: "ruby",
  "cmakelists.txt": "cmake",
  ".bashrc": "shell",
  ".zshrc": "shell",
  ".profile": "shell",
};

/** Every language name `detectLanguage` can return, sorted: what a search's language filter accepts. */
export const KNOWN_LANGUAGES: readonly string[] = [...new Set([...Object.values(BY_EXTENSION), ...Object.values(BY_NAME), "text"])].sort();

/**
 * Language of a file from its path: `"typescript"`, `"tsx"`, `"javascript"`, `"python"`, `"go"`,
 * `"rust"`, `"java"`, `"c"`, `"cpp"`, `"csharp"`, `"ruby"`, `"php"`, `"markdown"`, `"yaml"`,
 * `"json"`, `"toml"`, `"sql"`, `"shell"`, `"dockerfile"`, `"makefile"`, ... or `"text"`.
 * Files without an extension are recognised by name (`Dockerfile`, `Makefile`, `Gemfile`),
 * including `Dockerfile.dev` and `build.Dockerfile`. A `.h` file is `"c"` unless `text` is
 * given and reads as C++ (header-language.ts); the chunker passes the text, so the language
 * stored for a file is the one its chunks were parsed with.
 */
export function detectLanguage(path: string, text?: string): string {
  const name = (path.split("/").pop() ?? path).toLowerCase();
  const byName = BY_NAME[name];
  if (byName) return byName;
  if (name.startsWith("dockerfile.") || name.startsWith("containerfile.")) return "dockerfile";
  if (name.startsWith("makefile.")) return "makefile";
  const dot = name.lastIndexOf(".");
  if (dot < 0) return "text";
  const ext = name.slice(dot + 1);
  if (ext === "h" && text !== undefined) return headerLanguage(text);
  return BY_EXTENSION[ext] ?? "text";
}

/** True when `language` has a tree-sitter grammar. */
export function hasGrammar(language: string): language is GrammarLanguage {
  return (GRAMMAR_LANGUAGES as readonly string[]).includes(language);
}
