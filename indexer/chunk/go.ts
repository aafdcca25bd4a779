/**
 * @module indexer/chunk/go
 *
 * Chunking rules for Go: methods are top-level declarations whose container is the receiver
 * type; `type X struct` / `interface` map to struct / interface chunks. Every name a `const`
 * or `var` declaration makes is a symbol: in a `const ( .. )` / `var ( .. )` group each spec
 * is a `constant` / `variable` symbol with its own line and signature, as enum members are
 * elsewhere, while the group stays one chunk named after its first name.
 */
import type { Node } from "web-tree-sitter";
import { childOfType, fieldText, type Definition, type LanguageSpec } from "./spec";

const SPEC_TYPES: readonly string[] = ["const_spec", "var_spec"];

/** `(s *Store)` or `(s Store[T])` -> `Store`. */
function receiverType(node: Node): string | undefined {
  const text = node.childForFieldName("receiver")?.text ?? "";
  return /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*\)$/.exec(text)?.[1];
}

/** The names a spec declares (`A, B = 1, 2` -> A, B); the blank identifier `_` declares none. */
function specNames(spec: Node): string[] {
  // A const_spec's `name` field also holds the commas between the names.
  return spec.childrenForFieldName("name").flatMap((n) => (n.type === "identifier" && n.text !== "_" ? [n.text] : []));
}

/** First name as the definition's name, the others as aliases with the same lines. */
function named(names: string[]): Pick<Definition, "name" | "aliases"> {
  return names.length > 1 ? { name: names[0], aliases: names.slice(1) } : { name: names[0] ?? "" };
}

/**
 * `const X = 1` / `var a, b int` is one definition naming all its names. A parenthesized group
 * is one chunk whose specs are its member symbols; it has no symbol of its own, since the
 * block's lines and `const (` head describe none of its names.
 */
function declaration(node: Node): Definition {
  const kind = node.type === "const_declaration" ? "constant" : "variable";
  const list = childOfType(node, ["var_spec_list"]);
  const specs = (list ?? node).namedChildren.filter((c): c is Node => c !== null && SPEC_TYPES.includes(c.type));
  const names = specs.flatMap(specNames);
  const grouped = list !== null || node.children.some((c) => c?.type === "(");
  if (!grouped) return { kind, ...named(names), node };
  return { kind, name: names[0] ?? "", node, members: node, keepWhole: true, group: true, noSymbol: true };
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
    case "var_declaration":
      return declaration(node);
    // Members of a group (declaration above), or specs an ERROR node left at top level.
    case "const_spec":
    case "var_spec":
      return { kind: node.type === "const_spec" ? "constant" : "variable", ...named(specNames(node)), node, inHeader: true };
    default:
      return null;
  }
}

/** Go. */
export const goSpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "import_declaration",
  comments: new Set(["comment"]),
  // `var ( .. )` wraps its specs in a list node; `const ( .. )` does not.
  inline: new Set(["var_spec_list"]),
};
