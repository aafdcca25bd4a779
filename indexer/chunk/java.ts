/**
 * @module indexer/chunk/java
 *
 * Chunking rules for Java: annotations are part of a declaration's modifiers, so they stay
 * with it; fields become symbols and join the class's header chunk when the class is split.
 * An enum's fields, constructors and methods (after its constants) are members of the enum; a
 * constant with a body (`FOO { @Override .. }`) is an anonymous class named after the constant,
 * and one without (`FOO,` or `FOO("x")`) is a `constant` symbol that stays in the enum's header
 * chunk.
 */
import type { Node } from "web-tree-sitter";
import { fieldText, type Definition, type LanguageSpec } from "./spec";

function define(node: Node): Definition | null {
  const name = fieldText(node);
  const members = node.childForFieldName("body");
  switch (node.type) {
    case "class_declaration":
    case "record_declaration":
      return { kind: "class", name, node, members };
    case "interface_declaration":
    case "annotation_type_declaration":
      return { kind: "interface", name, node, members };
    case "enum_declaration":
      return { kind: "enum", name, node, members };
    case "enum_constant":
      return members ? { kind: "class", name, node, members } : { kind: "constant", name, node, inHeader: true };
    case "method_declaration":
      return { kind: "method", name, node };
    case "constructor_declaration":
    case "compact_constructor_declaration":
      return { kind: "constructor", name, node };
    case "field_declaration":
    case "constant_declaration": {
      const decl = node.childForFieldName("declarator");
      return { kind: "field", name: decl ? fieldText(decl) : "", node };
    }
    default:
      return null;
  }
}

/** Java. */
export const javaSpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "import_declaration",
  comments: new Set(["line_comment", "block_comment"]),
  inline: new Set(["enum_body_declarations"]),
};
