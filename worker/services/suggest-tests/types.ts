/**
 * @module worker/services/suggest-tests/types
 *
 * Plain data passed between the pure parts of suggest_tests: what the index holds about the
 * source file (facts.ts reads it), the facts gathered, and the conventions found (framework.ts).
 */
import type { TestFact, TestFramework } from "../suggest-tests-schema";

/** A row of the symbol table (lines 1-based, inclusive). */
export interface SymbolLite {
  name: string;
  kind: string;
  container: string | null;
  signature: string | null;
  startLine: number;
  endLine: number;
}

/** An indexed source file: its text, its symbol rows and its import lines. */
export interface SourceFile {
  path: string;
  language: string;
  text: string;
  symbols: SymbolLite[];
  imports: string[];
}

/** A parameter: name and declared type (null when the language has none written). */
export interface Param {
  name: string;
  type: string | null;
}

/** An error the body throws, raises or returns (Go), at `line`. */
export interface ThrownError {
  type: string;
  line: number;
}

/** Everything the renderers need about the function under test. */
export interface GatheredFacts {
  file: SourceFile;
  target: SymbolLite;
  params: Param[];
  returnType: string | null;
  isAsync: boolean;
  /** Constructor parameters of the enclosing class (what a test must pass to build it). */
  ctorParams: Param[];
  throws: ThrownError[];
  earlyReturns: number[];
  /** Imported modules the body calls: the import line and the local name used. */
  calledImports: { local: string; importLine: string; specifier: string | null }[];
  facts: TestFact[];
}

/** The framework and layout to write for. */
export interface Conventions {
  framework: TestFramework;
  testPath: string;
  testPathExists: boolean;
  /** Python: the dotted module to import from; Java: the package. */
  moduleName: string | null;
  /** Mockito is declared or imported by the repo (Java). */
  mockito: boolean;
  facts: TestFact[];
  notes: string[];
}

/** A rendered skeleton. */
export interface Rendered {
  skeleton: string;
  tests: { name: string; behaviour: string }[];
}
