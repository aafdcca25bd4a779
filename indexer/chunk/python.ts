/**
 * @module indexer/chunk/python
 *
 * Chunking rules for Python: decorators stay with their definition, the docstring becomes the
 * symbol's doc, assignments at module level are constants (UPPER_CASE) or variables, and
 * annotated names in a class body are fields.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec, type ScopeContext } from "./spec";

function docstring(body: Node | null): string | undefined {
  const first = body?.namedChild(0);
  if (first?.type !== "expression_statement") return undefined;
  const str = first.namedChild(0);
  if (str?.type !== "string") return undefined;
  return (
    str.text
      .replace(/^[rbuRBU]*("""|'''|"|')/, "")
      .replace(/("""|'''|"|')$/, "")
      .trim() || undefined
  );
}

function define(node: Node, ctx: ScopeContext): Definition | null {
  switch (node.type) {
    case "decorated_definition": {
      const inner = node.childForFieldName("definition");
      const def = inner ? define(inner, ctx) : null;
      return def ? { ...def, outer: node } : null;
    }
    case "function_definition":
      return { kind: "function", name: fieldText(node), node, doc: docstring(node.childForFieldName("body")) };
    case "class_definition": {
      const body = node.childForFieldName("body");
      return { kind: "class", name: fieldText(node), node, members: body, doc: docstring(body) };
    }
    case "expression_statement": {
      const a = node.namedChild(0);
      if (a?.type !== "assignment") return null;
      const left = a.childForFieldName("left");
      if (left?.type !== "identifier") return null;
      if (ctx.inClass) return { kind: "field", name: left.text, node };
      return { kind: /^[A-Z][A-Z0-9_]*$/.test(left.text) ? "constant" : "variable", name: left.text, node };
    }
    default:
      return null;
  }
}

/** Python. */
export const pythonSpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "import_statement" || node.type === "import_from_statement" || node.type === "future_import_statement",
  comments: new Set(["comment"]),
};
