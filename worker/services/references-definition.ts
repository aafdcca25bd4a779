/**
 * @module worker/services/references-definition
 *
 * find_references' `definition` argument: which identifier to scan for, and which of its
 * definitions (by qualified name, parameter list or path:line) the caller means.
 */
import { CodeSearchError } from "../../kernel/errors";
import type { DefRow } from "./references-resolve";
import { paramsMatch, parseQualifiedName, qualifierMatch } from "./symbols-qualified";

/** A single identifier (a trailing ! or ? belongs to Ruby names). */
export const IDENTIFIER_RE = /^[\p{L}\p{N}_$]+[!?]?$/u;

/** The identifier to scan for and the definition filter, from `symbol` and/or `definition`. */
export function wordAndDefinition(input: { symbol?: string; definition?: string }): { word: string; definition: string | undefined } {
  const symbol = input.symbol?.trim();
  let definition = input.definition?.trim();
  if (!symbol && !definition)
    throw new CodeSearchError("invalid_input", "Pass symbol (an identifier) or definition (e.g. InvoiceFormatter.format or path:line).");
  if (symbol && !IDENTIFIER_RE.test(symbol)) {
    if (!parseQualifiedName(symbol)) {
      throw new CodeSearchError(
        "invalid_input",
        `"${symbol}" is not an identifier or a qualified name; pass a name like getUserById or UserService.getUserById.`,
      );
    }
    definition ??= symbol;
  }
  if (symbol && IDENTIFIER_RE.test(symbol)) return { word: symbol, definition };
  const at = /^(.+):(\d+)$/.exec(definition!);
  if (at && !symbol) throw new CodeSearchError("invalid_input", `With definition "${definition}" as path:line, pass symbol too (the name defined there).`);
  const q = parseQualifiedName(definition!);
  const word = q ? q.member : definition!;
  if (!IDENTIFIER_RE.test(word))
    throw new CodeSearchError("invalid_input", `"${definition}" does not end in an identifier; pass e.g. InvoiceFormatter.format.`);
  return { word, definition };
}

/** The definitions `definition` names among `defs` (all named `word`); throws `not_found` listing them when none match. */
export function chooseDefinitions(definition: string, word: string, defs: DefRow[]): DefRow[] {
  const at = /^(.+):(\d+)$/.exec(definition);
  let chosen: DefRow[];
  if (at) {
    const line = Number(at[2]);
    chosen = defs.filter((d) => d.path === at[1] && d.start_line <= line && line <= d.end_line);
  } else {
    const q = parseQualifiedName(definition) ?? { qualifier: [], member: word };
    const matched = defs
      .filter((d) => !q.params || paramsMatch(q.params, d.signature))
      .map((d) => ({ d, via: qualifierMatch(q, d, null, true) }))
      .filter((m) => m.via !== null);
    // As find_symbol: a class named like the qualifier beats a file named like it.
    const byContainer = matched.filter((m) => m.via === "container");
    chosen = (byContainer.length ? byContainer : matched).map((m) => m.d);
  }
  if (!chosen.length) {
    const known = [
      ...new Set(
        defs.map(
          (d) =>
            `${d.container ? `${d.container}.` : ""}${d.name}${d.signature ? ` (${d.signature}) ${d.path}:${d.start_line}` : ` ${d.path}:${d.start_line}`}`,
        ),
      ),
    ];
    throw new CodeSearchError(
      "not_found",
      `No definition of "${word}" matches "${definition}".${known.length ? ` Definitions: ${known.slice(0, 8).join("; ")}.` : " The index has no definition of it; call find_symbol."}`,
    );
  }
  return chosen;
}
