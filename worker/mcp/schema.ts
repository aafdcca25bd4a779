/**
 * @module worker/mcp/schema
 *
 * The JSON Schemas `tools/list` shows, from the tools' zod schemas: portable and small.
 *
 * Portable: every schema passes the MCP Inspector's strict check (`--method tools/list
 * --strict`), which clients that map tool schemas onto a single-`type` dialect (the OpenAPI
 * subset of Gemini function declarations) need: no `type` array (`["string","null"]` becomes an
 * `anyOf` of single types), no bare boolean schema (a tuple's `items: false` becomes
 * `maxItems`), no schema without a validation keyword. The rewrite happens here, on the JSON,
 * so the zod schemas, and with them the REST shapes and OpenAPI document, keep `null` values.
 *
 * Small: an output schema only lets a client check `structuredContent` (the model reads the
 * text content and the tool's description), so it keeps types, properties, `required` and
 * enums and drops field descriptions, `additionalProperties: false` (a newer server may add a
 * field) and zod's default integer bounds (±2^53-1). Input schemas keep their descriptions: a
 * model reads them to fill the arguments.
 *
 * Validation still runs through zod: the wrapper delegates `~standard.validate` to it.
 */
import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { z } from "zod";

type Json = Record<string, unknown>;

/** Keywords whose value is one subschema, or a map or list of them. */
const ONE = ["items", "contains", "not", "propertyNames", "if", "then", "else", "additionalProperties", "unevaluatedProperties", "contentSchema"];
const MAP = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords that constrain a value (the Inspector's list, less the annotations): a schema with none accepts anything. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "$schema", "$id", "$comment", "deprecated", "readOnly", "writeOnly"]);

const isJson = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const acceptsAnything = (s: Json) => Object.keys(s).every((k) => ANNOTATIONS.has(k));

/** Rewrites one schema node (and its subschemas) in the portable, and for output the trimmed, form. */
export function portableJsonSchema(node: Json, output: boolean, root = true): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" && !root) continue;
    if (output && key === "description" && !root) continue;
    if (output && key === "additionalProperties" && value === false) continue;
    if ((key === "minimum" && value === Number.MIN_SAFE_INTEGER) || (key === "maximum" && value === Number.MAX_SAFE_INTEGER)) continue;
    if (ONE.includes(key) && isJson(value)) {
      // A free-form value under additionalProperties is written as the default (any), not `{}`.
      if ((key === "additionalProperties" || key === "unevaluatedProperties") && acceptsAnything(value)) continue;
      out[key] = portableJsonSchema(value, output, false);
    } else if (MAP.includes(key) && isJson(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isJson(v) ? portableJsonSchema(v, output, false) : v]));
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((v) => (isJson(v) ? portableJsonSchema(v, output, false) : v));
    else out[key] = value;
  }
  if (Array.isArray(out.type)) {
    out.anyOf = (out.type as string[]).map((type) => ({ type }));
    delete out.type;
  }
  // A tuple: `items: false` after `prefixItems` forbids more items, as maxItems does.
  if (out.items === false && Array.isArray(out.prefixItems)) {
    delete out.items;
    out.maxItems = out.prefixItems.length;
  }
  if ("propertyNames" in out && isJson(out.propertyNames) && out.propertyNames.type === "string") delete out.propertyNames;
  if (output && root) delete out.$schema;
  return out;
}

/**
 * `schema` as the SDK takes it (a Standard Schema with a JSON Schema converter): validation by
 * zod, the listed JSON Schema from zod's own conversion made portable (and trimmed for output).
 */
export function portableSchema<S extends z.ZodType>(schema: S, output: boolean): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const cache = output ? outputCache : inputCache;
  const hit = cache.get(schema);
  if (hit) return hit as StandardSchemaWithJSON<z.input<S>, z.output<S>>;
  // Converted once per isolate and schema: the server is built anew for every request.
  const converted: Partial<Record<"input" | "output", Json>> = {};
  const json = (io: "input" | "output") => (converted[io] ??= portableJsonSchema(z.toJSONSchema(schema, { target: "draft-2020-12", io }) as Json, output));
  const wrapped = {
    "~standard": { ...schema["~standard"], jsonSchema: { input: () => json("input"), output: () => json("output") } },
  } as StandardSchemaWithJSON<z.input<S>, z.output<S>>;
  cache.set(schema, wrapped);
  return wrapped;
}

const inputCache = new WeakMap<z.ZodType, unknown>();
const outputCache = new WeakMap<z.ZodType, unknown>();
