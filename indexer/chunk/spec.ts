/**
 * @module indexer/chunk/spec
 *
 * What a language file tells the generic syntax chunker (syntax.ts): which nodes define
 * symbols, which are imports, comments or attributes. One `LanguageSpec` per grammar lives in
 * `<language>.ts`; the chunking rules themselves are shared.
 */
import type { Node } from "web-tree-sitter";
import type { SymbolDef } from "../store/contract";

/** Kind of a definition: a chunk kind or a member-only kind (`field`, `variable`, `constant`). */
export type DefKind = SymbolDef["kind"];

/** Where a node sits: at module level or among the members of a class-like container. */
export interface ScopeContext {
  /** True among the members of a class, struct, trait, impl or interface. */
  inClass: boolean;
  /** Name of the enclosing container, if any. */
  container?: string;
}

/** A definition found by a language spec. */
export interface Definition {
  kind: DefKind;
  /** Symbol name; empty for unnamed containers such as `extern "C" {}` or `#ifdef`. */
  name: string;
  /** The declaration itself (signature and body are read from it). */
  node: Node;
  /** The node whose lines the chunk covers (an `export`, decorator or template wrapper); defaults to `node`. */
  outer?: Node;
  /** Node whose named children are the members (class body, namespace body); absent for leaves. */
  members?: Node | null;
  /** Namespaces, impls, modules: always split into members, never one chunk. */
  transparent?: boolean;
  /**
   * Never split into member chunks, even when longer than the largest chunk (it becomes
   * windows instead); its members are still symbols. Enums whose bodies hold only constants.
   */
  keepWhole?: boolean;
  /** Container to use instead of the enclosing one (Go receiver type, C++ `Foo::bar`). */
  container?: string;
  /**
   * Other names of the same definition, each recorded as a symbol with the same lines
   * (JavaScript `res.contentType = res.type = function`, `app.m = function other()`).
   */
  aliases?: string[];
  /**
   * A declaration group (Go `const ( .. )`, `var ( .. )`): its members are declared in the
   * enclosing scope, so they take its container rather than this definition's name, and a
   * member without a doc comment of its own takes the group's (as godoc shows it).
   */
  group?: boolean;
  /** Do not record in the symbol table (impl blocks, `#ifdef`, Go declaration groups). */
  noSymbol?: boolean;
  /**
   * A member that stays in its container's header chunk, as fields do, instead of becoming a
   * chunk of its own: enum constants (`READ,`), which are symbols but too small to be results.
   */
  inHeader?: boolean;
  /** Doc string found inside the definition (Python docstrings). */
  doc?: string;
}

/** One grammar's view of the chunking rules. */
export interface LanguageSpec {
  /** Returns the definition a named node makes, or null for other statements. */
  define(node: Node, ctx: ScopeContext): Definition | null;
  /** True for import / use / include statements (collected for the outline). */
  isImport(node: Node): boolean;
  /** Comment node types: a comment right above a definition is its doc comment. */
  comments: ReadonlySet<string>;
  /**
   * A doc comment that documents the definition below it even across one blank line
   * (JavaScript's JSDoc, as express writes it); other comments must touch the definition.
   */
  detachedDoc?: RegExp;
  /** Decorator / attribute node types that precede a definition as siblings (Rust `#[..]`). */
  attributes?: ReadonlySet<string>;
  /** Node types whose named children are members of the enclosing scope (Java `enum_body_declarations`). */
  inline?: ReadonlySet<string>;
  /**
   * For a definition taken out of an ERROR node: an earlier sibling where it really starts, or
   * null (C: the `#if` above a function head that `#if`/`#else` split in two).
   */
  headStart?(node: Node): Node | null;
  /**
   * Texts to parse instead of the file's, best first (C and C++: attribute-like macros blanked,
   * then without that). The first that parses without errors is chunked, else the one with the
   * fewest lines inside ERROR nodes. Each must keep every character's offset and line; chunks
   * still hold the file's lines and signatures are read from the file's text.
   */
  parseTexts?(text: string): string[];
}

/** Name of a node's `name` field, or "". */
export function fieldText(node: Node, field = "name"): string {
  return node.childForFieldName(field)?.text ?? "";
}

/** First named child of one of the given types, or null. */
export function childOfType(node: Node, types: readonly string[]): Node | null {
  for (const c of node.namedChildren) if (c && types.includes(c.type)) return c;
  return null;
}
