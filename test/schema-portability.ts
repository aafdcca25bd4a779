/**
 * The MCP Inspector's schema portability check (`mcp-inspector --cli <url> --method tools/list
 * --strict`, @modelcontextprotocol/inspector 2.12.0, `core/json/schemaLint.ts` in its CLI
 * bundle), with the same four rules, so the test suite applies it to every tool as `tools/list`
 * lists them without installing the Inspector (its CLI ships as a bundle that exports no
 * function, and it pulls in React, Ink and Vite):
 *
 * - `boolean-schema` (error): a bare `true`/`false` where a schema object is expected (allowed
 *   only under additionalProperties, unevaluatedProperties, additionalItems, unevaluatedItems);
 * - `type-union` (warning): `type` given as an array (`["string","null"]`);
 * - `remote-ref` (warning): a `$ref` outside the document;
 * - `untyped-schema` (warning): a schema with no validation keyword (`{}` or only a description).
 *
 * The Inspector fails `--strict` on errors only; the tests here accept no warning either.
 */

/** One finding: rule, severity, `inputSchema`/`outputSchema` and the path inside it. */
export interface SchemaFinding {
  rule: "boolean-schema" | "type-union" | "remote-ref" | "untyped-schema";
  severity: "error" | "warning";
  where: string;
}

const BOOLEAN_VALUED = new Set(["additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"]);
const SUB = ["items", "contains", "not", "propertyNames", "if", "then", "else", ...BOOLEAN_VALUED, "contentSchema"];
const SUB_ARRAY = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SUB_MAP = ["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"];
const CONSTRAINING = new Set([
  ...["type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern"],
  ...["format", "contentMediaType", "contentEncoding", "contentSchema", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains"],
  ...["maxProperties", "minProperties", "required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "items", "prefixItems", "contains"],
  ...["additionalItems", "unevaluatedItems", "properties", "patternProperties", "additionalProperties", "unevaluatedProperties"],
  ...["propertyNames", "dependentSchemas", "dependencies", "$ref", "$dynamicRef", "$recursiveRef"],
]);

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

function children(node: Node, path: string, visit: (child: unknown, path: string, keyword: string) => void): void {
  for (const key of SUB_MAP) if (isNode(node[key])) for (const [name, sub] of Object.entries(node[key])) visit(sub, `${path}.${key}.${name}`, key);
  for (const key of SUB_ARRAY) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((sub, i) => visit(sub, `${path}.${key}[${i}]`, key));
  for (const key of SUB) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === "items" && Array.isArray(value)) value.forEach((sub, i) => visit(sub, `${path}.items[${i}]`, key));
    else visit(value, `${path}.${key}`, key);
  }
}

function walk(node: unknown, path: string, keyword: string | undefined, out: SchemaFinding[]): void {
  if (typeof node === "boolean") {
    if (!keyword || !BOOLEAN_VALUED.has(keyword)) out.push({ rule: "boolean-schema", severity: "error", where: path });
    return;
  }
  if (!isNode(node)) return;
  if (Array.isArray(node.type)) out.push({ rule: "type-union", severity: "warning", where: path });
  if (typeof node.$ref === "string" && node.$ref !== "" && !node.$ref.startsWith("#")) out.push({ rule: "remote-ref", severity: "warning", where: path });
  const constrains = Object.keys(node).some((k) => CONSTRAINING.has(k)) || ("if" in node && ("then" in node || "else" in node));
  if (!constrains && keyword !== "not") out.push({ rule: "untyped-schema", severity: "warning", where: path });
  children(node, path, (child, p, k) => walk(child, p, k, out));
}

/** Every finding in one tool's input and output schema. */
export function lintToolSchemas(tool: { inputSchema?: unknown; outputSchema?: unknown }): SchemaFinding[] {
  const out: SchemaFinding[] = [];
  if (tool.inputSchema !== undefined) walk(tool.inputSchema, "inputSchema", undefined, out);
  if (tool.outputSchema !== undefined) walk(tool.outputSchema, "outputSchema", undefined, out);
  return out;
}
