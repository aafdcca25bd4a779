/**
 * The patterns `npm run bench:grep` (scripts/bench-grep.ts) runs, and the ripgrep flags that
 * give each the same meaning as its grep request fields.
 */

/** One bench pattern: the grep request fields; rg gets the same meaning as flags. */
export interface Pattern {
  pattern: string;
  regex?: boolean;
  case_sensitive?: boolean;
  whole_word?: boolean;
}

/** 50 patterns: 15 literals, 10 case-insensitive, 10 whole words, 15 regexes (classes, alternation). Generic code words, not tuned to either tree. */
export const PATTERNS: Pattern[] = [
  ...[
    "TODO",
    "return null",
    "import ",
    "Error(",
    "@param",
    "http://",
    "self.assert",
    "raise ValueError",
    "export const",
    "console.log",
    "__init__",
    "throw new",
    "assert ",
    "=> {",
    "# XXX",
  ].map((pattern) => ({ pattern })),
  ...["todo", "deprecated", "notimplemented", "typeerror", "Context", "RESPONSE", "matrix", "Headers", "symbol", "cache"].map((pattern) => ({
    pattern,
    case_sensitive: false,
  })),
  ...["if", "new", "is", "def", "const", "self", "type", "None", "async", "key"].map((pattern) => ({ pattern, whole_word: true })),
  ...[
    "\\bdef\\s+[a-z_]+\\(",
    "(TODO|FIXME|XXX)",
    "[A-Z][a-z]+Error\\b",
    "^\\s*import\\s",
    "\\d{4,}",
    "https?://[a-z.]+",
    "\\bself\\.[a-z_]+\\(",
    "(get|set|has)[A-Z][A-Za-z]+\\(",
    "=>\\s*\\{$",
    "^class [A-Z]",
    "[a-z]+_[a-z]+_[a-z]+",
    "\\breturn (true|false|None)\\b",
    "c\\.(req|res|json)",
    "(?i)not\\s+implemented",
    "\\b[0-9]+\\.[0-9]+\\b",
  ].map((pattern) => ({ pattern, regex: true })),
];

/** ripgrep flags with the same meaning as a pattern's grep fields. */
export function rgFlags(p: Pattern): string[] {
  return [...(p.regex ? [] : ["-F"]), ...(p.case_sensitive === false ? ["-i"] : []), ...(p.whole_word ? ["-w"] : [])];
}
