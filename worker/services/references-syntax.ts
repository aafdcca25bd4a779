/**
 * @module worker/services/references-syntax
 *
 * What each occurrence of a word is, read from the file's syntax tree (the chunker's
 * tree-sitter grammars): a definition's name, a call (with its receiver and argument count),
 * an import, a type use, another code reference, or a mention in a comment or string. Files
 * without a grammar (docs, config) get no tree: their occurrences are lexical `text`.
 */
import type { Node } from "web-tree-sitter";
import { hasGrammar } from "../../indexer/chunk";
import { getParser } from "../../indexer/chunk/parser";

/** Occurrence kinds. comment, string and text are lexical: the word appears but nothing refers to it. */
export const REFERENCE_KINDS = ["definition", "call", "import", "type", "reference", "comment", "string", "text"] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** Kinds that are only a textual mention. */
export const LEXICAL_KINDS: ReadonlySet<ReferenceKind> = new Set(["comment", "string", "text"]);

/** What the tree says about one occurrence. `receiver` is the text before the `.`/`->`/`::`; `args` counts call arguments. */
export interface SyntaxFacts {
  kind: ReferenceKind;
  receiver: string | null;
  /** For a receiver that is itself a call or `new X(...)`: the called name (`ReportParser` in `ReportParser().parse`). */
  receiverCall: string | null;
  args: number | null;
  /**
   * The alias half of `x as x` (Python `from .m import x as x`, TypeScript `export { x as x }`,
   * Rust `use m::x as x`, PHP `use A\\x as x`): the same name at the same place as the one
   * before it, so references list that place once.
   */
  sameNameAlias?: boolean;
}

const IMPORT_TYPES = new Set([
  "import_statement",
  "import_declaration",
  "import_from_statement",
  "future_import_statement",
  "using_directive",
  "import_spec",
  "use_declaration",
  "namespace_use_clause",
]);
/** Code inside a string (template literal `${}`, f-string `{}`, C# `$"{}"`). */
const INTERPOLATION_TYPES = new Set(["template_substitution", "interpolation", "string_interpolation", "interpolated_string_expression_content"]);
const STRING_RE = /string|char_literal|heredoc|^template_/;
/** Member access: [node type, object field, member field]. */
const MEMBER_FIELDS: Record<string, [string, string]> = {
  member_expression: ["object", "property"],
  attribute: ["object", "attribute"],
  selector_expression: ["operand", "field"],
  member_access_expression: ["expression", "name"],
  field_access: ["object", "field"],
  field_expression: ["argument", "field"],
  scoped_identifier: ["path", "name"],
  qualified_name: ["qualifier", "name"],
};
/** Calls and instantiations, with the field that holds the callee. */
const CALL_FIELDS: Record<string, string> = {
  call_expression: "function",
  call: "function",
  invocation_expression: "function",
  new_expression: "constructor",
  object_creation_expression: "type",
  composite_literal: "type",
};
const TYPE_PARENTS = new Set([
  "generic_type",
  "type_annotation",
  "type_arguments",
  "array_type",
  "nullable_type",
  "pointer_type",
  "qualified_type",
  "type",
  "scoped_type_identifier",
]);
const DEFINITION_PARENT_RE = /(declaration|definition|declarator|signature|_spec|_item)$/;

function same(a: Node | null, b: Node): boolean {
  return !!a && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}

function argCount(call: Node): number | null {
  const args = call.childForFieldName("arguments");
  if (!args) return null;
  return args.namedChildren.filter((c) => c !== null && !c.type.includes("comment")).length;
}

/** The called name of a call or `new` node (`ReportParser` in `ReportParser(strict=True)`), else null. */
function calledName(node: Node): string | null {
  const field = CALL_FIELDS[node.type];
  if (!field) return null;
  const callee = node.childForFieldName(field);
  return callee ? (callee.text.split(/\.|::|->/).pop() ?? null) : null;
}

/** True when `node` is the alias of an import/export clause that renames a name to itself. */
function isSameNameAlias(node: Node): boolean {
  const p = node.parent;
  if (!p || !same(p.childForFieldName("alias"), node)) return false;
  const original = p.namedChildren.find((c) => c !== null && !same(c, node));
  return !!original && original.text.split(/\.|::|\\/).pop() === node.text;
}

/** Classifies the identifier `node` (the smallest node covering the occurrence). */
export function classifyNode(node: Node): SyntaxFacts {
  const facts = classifyKind(node);
  return isSameNameAlias(node) ? { ...facts, sameNameAlias: true } : facts;
}

/** What `node` is: import, definition, call, type, reference, or a comment or string. */
function classifyKind(node: Node): SyntaxFacts {
  const facts: SyntaxFacts = { kind: "reference", receiver: null, receiverCall: null, args: null };
  let lexical: ReferenceKind | null = null;
  for (let n: Node | null = node; n; n = n.parent) {
    if (n.type.includes("comment")) return { ...facts, kind: "comment" };
    if (INTERPOLATION_TYPES.has(n.type)) break;
    if (!lexical && STRING_RE.test(n.type)) lexical = "string";
  }
  for (let n: Node | null = node.parent; n; n = n.parent) if (IMPORT_TYPES.has(n.type)) return { ...facts, kind: "import" };
  if (lexical) return { ...facts, kind: lexical };
  let m = node;
  let p = node.parent;
  if (!p) return facts;
  if (p.type === "method_invocation" && same(p.childForFieldName("name"), node)) {
    const obj = p.childForFieldName("object");
    return { kind: "call", receiver: obj?.text ?? null, receiverCall: obj ? calledName(obj) : null, args: argCount(p) };
  }
  const member = MEMBER_FIELDS[p.type];
  if (member && same(p.childForFieldName(member[1]), node)) {
    const obj = p.childForFieldName(member[0]);
    facts.receiver = obj?.text ?? null;
    facts.receiverCall = obj ? calledName(obj) : null;
    m = p;
    p = p.parent;
  } else if (DEFINITION_PARENT_RE.test(p.type) && same(p.childForFieldName("name"), node)) {
    return { ...facts, kind: "definition" };
  }
  const callField = p ? CALL_FIELDS[p.type] : undefined;
  if (p && callField && same(p.childForFieldName(callField), m)) return { ...facts, kind: "call", args: argCount(p) };
  if (node.type === "type_identifier" || (p && TYPE_PARENTS.has(p.type)) || (p && same(p.childForFieldName("type"), m))) return { ...facts, kind: "type" };
  return facts;
}

/**
 * Facts for each occurrence (`start`, `end`: UTF-16 offsets into `text`), or null when the
 * language has no grammar (every occurrence is then lexical text). Parses once per call.
 */
export async function classifyOccurrences(language: string, text: string, spans: { start: number; end: number }[]): Promise<SyntaxFacts[] | null> {
  if (!hasGrammar(language)) return null;
  const parser = await getParser(language);
  const tree = parser.parse(text);
  if (!tree) return null;
  try {
    return spans.map(({ start, end }) => {
      const node = tree.rootNode.descendantForIndex(start, end);
      return node ? classifyNode(node) : { kind: "reference", receiver: null, receiverCall: null, args: null };
    });
  } finally {
    tree.delete(); // trees live in wasm memory, not the JS heap
  }
}
