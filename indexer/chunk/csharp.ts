/**
 * @module indexer/chunk/csharp
 *
 * Chunking rules for C#: namespaces are looked through (container = namespace name for types,
 * class name for members); `[Attributes]` are part of the declaration; properties and fields
 * are symbols that join the class header chunk when a class is split; enum members are
 * `constant` symbols inside the enum's chunk.
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
    case "struct_declaration":
    case "record_struct_declaration":
      return { kind: "struct", name, node, members };
    case "interface_declaration":
      return { kind: "interface", name, node, members };
    case "enum_declaration":
      return { kind: "enum", name, node, members, keepWhole: true };
    case "enum_member_declaration":
      return { kind: "constant", name, node, inHeader: true };
    case "delegate_declaration":
      return { kind: "type", name, node };
    case "method_declaration":
    case "destructor_declaration":
    case "operator_declaration":
      return { kind: "method", name, node };
    case "constructor_declaration":
      return { kind: "constructor", name, node };
    case "property_declaration":
    case "event_declaration":
      return { kind: "field", name, node };
    case "field_declaration":
    case "event_field_declaration": {
      const decl = node.descendantsOfType("variable_declarator")[0];
      return { kind: "field", name: decl ? fieldText(decl) || decl.namedChild(0)?.text || "" : "", node };
    }
    case "namespace_declaration":
      return { kind: "module", name, node, members, transparent: true };
    default:
      return null;
  }
}

/** C#. */
export const csharpSpec: LanguageSpec = {
  define,
  isImport: (node) => node.type === "using_directive",
  comments: new Set(["comment"]),
};
