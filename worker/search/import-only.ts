/**
 * @module worker/search/import-only
 *
 * Which chunks only bring names in (imports, includes, `use`, `package`/`namespace` lines) and
 * which questions ask about imports. An import-only chunk matches a question's words through the
 * names it imports (hono's `compose.ts:1-2`, `import type { Context } from './context'`) but
 * answers no question about behaviour; the `imports` stage (ranking/imports.ts) ranks it below
 * code that does something. Pure.
 */

/**
 * Whole statements that only import or declare the unit, across the indexed languages; each may
 * span lines (`import {\n a,\n b\n} from "x"`, Go's `import (...)`, Python's `from x import (...)`,
 * Rust's `use a::{b, c};`).
 */
const IMPORT_STATEMENTS: RegExp[] = [
  // JS/TS: import ... from "x"; import "x"; export ... from "x"; const x = require("x");
  /^\s*(?:import|export)\s+[\w\s{},*$]*?\bfrom\s*(['"])[^'"\n]*\1\s*;?/gm,
  /^\s*import\s*(['"])[^'"\n]*\1\s*;?/gm,
  /^\s*import\s+\w+\s*=\s*require\([^)]*\)\s*;?/gm,
  /^\s*(?:const|let|var)\s+[\w{}\s,:]+=\s*require\(\s*(['"])[^'"\n]*\1\s*\)\s*;?/gm,
  // Python: import a, b; from x import (a, b)
  /^\s*from\s+[\w.]+\s+import\s+(?:\([^)]*\)|[^\n]*)/gm,
  /^\s*import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*\s*;?\s*$/gm,
  // Go: package x; import "x"; import ( ... )
  /^\s*import\s*\([^)]*\)/gm,
  /^\s*import\s+(?:\w+\s+|\.\s+|_\s+)?"[^"\n]*"/gm,
  /^\s*package\s+[\w.]+\s*;?\s*$/gm,
  // Java, Kotlin, Scala: import a.b.*;  C#: using X; namespace X;  PHP: use X; namespace X;
  /^\s*import\s+(?:static\s+)?[\w.*]+\s*;?\s*$/gm,
  /^\s*(?:global\s+)?using\s+(?:static\s+)?[\w.]+(?:\s*=\s*[\w.<>]+)?\s*;\s*$/gm,
  /^\s*namespace\s+[\w.\\]+\s*;\s*$/gm,
  // Rust: use a::{b, c}; extern crate x; mod x;  PHP: use A\B;
  /^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+[^;]+;/gm,
  /^\s*extern\s+crate\s+\w+(?:\s+as\s+\w+)?\s*;/gm,
  /^\s*(?:pub\s+)?mod\s+\w+\s*;/gm,
  // C, C++: #include <x>, #include "x", #pragma once, #import
  /^\s*#\s*(?:include|import)\s*[<"][^>"\n]*[>"]/gm,
  /^\s*#\s*pragma\s+once\b.*$/gm,
  // Ruby: require "x", require_relative "x"; PHP: require_once 'x';
  /^\s*(?:require|require_relative|require_once|include_once)\s*\(?\s*(['"])[^'"\n]*\1\s*\)?\s*;?/gm,
];

/** Comments and a PHP opening tag: they may sit between the imports (licence headers, notes). */
const FILLER: RegExp[] = [
  /\/\*[\s\S]*?\*\//g,
  /^\s*(?:\/\/|#(?!\s*(?:include|import|pragma))|--)[^\n]*$/gm,
  /<\?php\b/g,
  /^\s*['"]use (?:strict|client|server)['"];?/gm,
];

/**
 * Whether `content` (a chunk's text) holds at least one import statement and nothing else but
 * comments and blank lines. A chunk that also declares or runs something is not import-only.
 */
export function isImportOnly(content: string): boolean {
  let rest = content;
  for (const re of FILLER) rest = rest.replace(re, "");
  let found = false;
  for (const re of IMPORT_STATEMENTS) {
    rest = rest.replace(re, () => {
      found = true;
      return "";
    });
  }
  return found && rest.trim() === "";
}

/** Words by which a question asks about imports, includes or dependencies themselves. */
const ASKS_IMPORTS = /\b(?:imports?|imported|importing|dependenc(?:y|ies))\b|#include|\brequire(?:_relative)?\s*\(|\buse\s+[\w:]+::/i;

/** Whether the query asks about imports ("which files import zod", "where is lodash required"). */
export function asksAboutImports(text: string): boolean {
  return ASKS_IMPORTS.test(text);
}
