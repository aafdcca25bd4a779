/**
 * @module indexer/chunk/syntax-text
 *
 * What the syntax chunker reads from a tree-sitter node besides its place in the tree: its
 * 1-based lines, its declaration head as the file has it (signatureOf), and comment text
 * without markers. Pure functions of a node (and the file's text when it was parsed altered).
 */
import type { Node } from "web-tree-sitter";
import type { Definition } from "./spec";

const MAX_SIGNATURE_CHARS = 300;
const MAX_DOC_CHARS = 1000;

/** A file's text and the same-length text it was parsed as. */
export interface ParsedSource {
  text: string;
  parsed: string;
}

/** 1-based first line of a node. */
export function startLine(node: Node): number {
  return node.startPosition.row + 1;
}

/** 1-based last line of a node; a node ending at column 0 ends on the line before. */
export function endLine(node: Node): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

/** `text` on one line (whitespace runs as one space), cut to `max` characters with `…`. */
export function collapse(text: string, max: number): string {
  const s = text.replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/**
 * Where a node's head starts in the file's text: before the characters on its line that the
 * parser saw as blanks (`FMT_CONSTEXPR20 basic_memory_buffer(..)` starts at the macro).
 */
function headStartIndex(node: Node, source: ParsedSource): number {
  let i = node.startIndex;
  while (i > 0 && (source.parsed[i - 1] === " " || source.parsed[i - 1] === "\t")) i--;
  while (i < node.startIndex && source.parsed[i] === source.text[i]) i++;
  return i;
}

/** The declaration head up to its body, as the file has it: `function getUser(id: string): User`. */
export function signatureOf(def: Definition, source?: ParsedSource): string | undefined {
  const node = def.node;
  const body = node.childForFieldName("body") ?? def.members ?? null;
  const start = source ? headStartIndex(node, source) : node.startIndex;
  let text = source ? source.text.slice(start, node.endIndex) : node.text;
  if (body && body.startIndex > node.startIndex) text = text.slice(0, body.startIndex - start);
  // No body, or members that are the node itself (Go `const (`): the first line.
  else text = text.split("\n")[0];
  // A comment between the head and the body (Ruby's `def f(x)` with `# note` on the next line,
  // `int f(void) /* x */ {`) is not part of the head.
  const afterName = node.childForFieldName("name")?.endIndex ?? node.startIndex;
  const comment = node.children.find((c) => c !== null && c.type.includes("comment") && c.startIndex >= afterName && (!body || c.startIndex < body.startIndex));
  if (comment && comment.startIndex - start < text.length) text = text.slice(0, comment.startIndex - start);
  let sig = collapse(text, MAX_SIGNATURE_CHARS)
    .replace(/\s*[{:]$/, "")
    .replace(/\s*=\s*$/, "");
  // `typedef struct {` names its type after the body (`operator <` is named `operator<`).
  if (def.name && !sig.replace(/\s+/g, "").includes(def.name.replace(/\s+/g, ""))) sig = `${sig} ${def.name}`;
  return sig || undefined;
}

/** Comment text without markers (`//`, `/*`, `*`, `#`, `///`, `--`). */
export function cleanComment(text: string): string {
  return text
    .split("\n")
    .map((l) => l.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/\/?!?|#+|--)\s?/, "").replace(/\s*\*\/\s*$/, ""))
    .filter((l) => l.trim().length > 0)
    .join("\n")
    .slice(0, MAX_DOC_CHARS);
}
