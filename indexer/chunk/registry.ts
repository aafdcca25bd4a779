/**
 * @module indexer/chunk/registry
 *
 * Grammar language -> chunking spec. Adding a language means one spec file, one line here,
 * one extension in languages.ts and one case in grammars-workerd.ts.
 */
import { cFamilySpec, cppSpec } from "./c-family";
import { csharpSpec } from "./csharp";
import { goSpec } from "./go";
import { javaSpec } from "./java";
import type { GrammarLanguage } from "./languages";
import { phpSpec } from "./php";
import { pythonSpec } from "./python";
import { rubySpec } from "./ruby";
import { rustSpec } from "./rust";
import type { LanguageSpec } from "./spec";
import { typescriptSpec } from "./typescript";

/** The chunking spec of each grammar language. */
export const SPECS: Record<GrammarLanguage, LanguageSpec> = {
  typescript: typescriptSpec,
  tsx: typescriptSpec,
  javascript: typescriptSpec,
  python: pythonSpec,
  go: goSpec,
  rust: rustSpec,
  java: javaSpec,
  c: cFamilySpec,
  cpp: cppSpec,
  csharp: csharpSpec,
  ruby: rubySpec,
  php: phpSpec,
};
