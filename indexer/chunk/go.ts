/**
 * @module indexer/chunk/go
 *
 * Chunking rules for Go: methods are top-level declarations whose container is the receiver
 * type; `type X struct` / `interface` map to struct / interface chunks.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec } from "./spec";

/** `(s *Store)` or `(s Store[T])` -> `Store`. */
function receiverType(node: Node): string | undefined {
  const text = node.childForFieldName("receiver")?.text ?? "";
  return /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*\)$/.exec(text)?.[1];
}

function define(node: Node): Definition | null {
  switch (node.type) {
    case "function_declaration":
      return { kind: "function", name: fieldText(node), node };
    case "method_declaration":
      return { kind: "method", name: fieldText(node), node, container: receiverType(node) };
    case "type_declaration": {
      const spec = node.namedChildren.find((c) => c?.type === "type_spec" || c?.type === "type_alias");
      if (!spec) return null;
      const type = spec.childForFieldName("type")?.type;
      const kind = type === "struct_type" ? "struct" : type === "interface_type" ? "interface" : "type";
      return { kind, name: fieldText(spec), node };
    }
    case "const_declaration":
    case "var_declaration": {
      const spec = node.namedChildren.find((c) => c?.type === "const_spec" || c?.type === "var_spec");
      return { kind: node.type === "const_declaration" ? "constant" : "variable", name: spec ? fieldText(spec) : "", node };
    }
    default:
      return null;
  }
}

/** Go. */
export const goSpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "import_declaration",
  comments: new Set(["comment"]),
};
