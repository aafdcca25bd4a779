/**
 * @module worker/mcp/input-aliases
 *
 * Other spellings a tool accepts for its parameters. The line-range tools grew two spellings:
 * `read_file` takes `start_line`/`end_line` (canonical there: its `next` names them so), while
 * `blame` and `file_history` take `start`/`end` (canonical there, as the REST routes). Each also
 * accepts the other tool's spelling, so a client that learned one is not silently served the
 * whole file by the other (zod drops unknown keys). One zod preprocess renames the alias to the
 * canonical name before the tool's own schema validates; tools/list shows the canonical names only.
 */
import { z } from "zod";

/** Alias -> canonical parameter name. */
export type InputAliases = Readonly<Record<string, string>>;

/** `read_file`: canonical `start_line`/`end_line`. */
export const READ_FILE_LINE_ALIASES: InputAliases = { start: "start_line", end: "end_line" };
/** `blame`, `file_history`: canonical `start`/`end`. */
export const HISTORY_LINE_ALIASES: InputAliases = { start_line: "start", end_line: "end" };

/**
 * `raw` with each alias renamed to its canonical name. `error` names a parameter given in both
 * spellings with different values (the same value twice is accepted).
 */
export function applyInputAliases(raw: unknown, aliases: InputAliases): { value: unknown; error: string | null } {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { value: raw, error: null };
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (!(alias in out)) continue;
    if (canonical in out && out[canonical] !== out[alias]) {
      return { value: raw, error: `${alias}: the same parameter as ${canonical}; give ${canonical} only` };
    }
    out[canonical] = out[alias];
    delete out[alias];
  }
  return { value: out, error: null };
}

const cache = new WeakMap<z.ZodObject, Map<InputAliases, z.ZodType>>();

/** `schema` behind a preprocess that applies `aliases` (cached per schema: the MCP server is built per request). */
export function withInputAliases<S extends z.ZodObject>(schema: S, aliases: InputAliases): z.ZodType<z.output<S>, z.input<S>> {
  let bySchema = cache.get(schema);
  if (!bySchema) cache.set(schema, (bySchema = new Map()));
  let wrapped = bySchema.get(aliases);
  if (!wrapped) {
    wrapped = z.preprocess((raw, ctx) => {
      const { value, error } = applyInputAliases(raw, aliases);
      if (error) ctx.addIssue({ code: "custom", message: error, input: raw });
      return value;
    }, schema);
    bySchema.set(aliases, wrapped);
  }
  return wrapped as z.ZodType<z.output<S>, z.input<S>>;
}

/** The sentence a tool's description gains for its aliases, e.g. "Also accepted: start for start_line, end for end_line." */
export function aliasesNote(aliases: InputAliases): string {
  return `Also accepted: ${Object.entries(aliases)
    .map(([alias, canonical]) => `${alias} for ${canonical}`)
    .join(", ")}.`;
}
