/**
 * @module worker/services/symbols-qualified
 *
 * Qualified symbol names as the languages write them and as find_symbol prints them:
 * `Class.method`, `Class#method`, `pkg.func`, `module::item`, `Namespace.Class.Method`, with an
 * optional parameter list that picks an overload (`format(Invoice, Locale)`). Pure functions:
 * parsing the name, and deciding whether a symbol-table row is that definition.
 */

/** A parsed qualified name: `qualifier` is outermost first; `params` is set when a `(...)` was given. */
export interface QualifiedName {
  qualifier: string[];
  member: string;
  params?: string[];
}

/** Separators between a qualifier and a member: `::`, `#`, `.`, and `/` (a Go import path). */
const SEPARATOR_RE = /::|#|\.|\//;

/**
 * Parses `Class.method`, `A::b`, `Ns.Class.Method(T1, T2)`; null when `name` has neither a
 * separator nor a parameter list (a plain identifier) or a part is empty.
 */
export function parseQualifiedName(name: string): QualifiedName | null {
  const trimmed = name.trim();
  const open = trimmed.indexOf("(");
  let head = trimmed;
  let params: string[] | undefined;
  if (open > 0 && trimmed.endsWith(")")) {
    head = trimmed.slice(0, open).trim();
    const inner = trimmed.slice(open + 1, -1).trim();
    params = inner ? splitTopLevel(inner).map((p) => p.trim()) : [];
  }
  const parts = head.split(SEPARATOR_RE).map((p) => p.trim());
  if (parts.some((p) => p === "")) return null;
  if (parts.length < 2 && params === undefined) return null;
  return { qualifier: parts.slice(0, -1), member: parts[parts.length - 1], params };
}

/** Splits on commas outside `<>`, `()`, `[]` and `{}` (generic arguments keep their commas). */
export function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if ("<([{".includes(ch)) depth++;
    else if (">)]}".includes(ch)) depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur.trim() || out.length) out.push(cur);
  return out;
}

/** The parameters of a signature (the text inside its first top-level `(...)`), or null when it has none. */
export function signatureParams(signature: string | null): string[] | null {
  if (!signature) return null;
  const open = signature.indexOf("(");
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < signature.length; i++) {
    if (signature[i] === "(") depth++;
    else if (signature[i] === ")" && --depth === 0) {
      const inner = signature.slice(open + 1, i).trim();
      // Python's self/cls are not arguments a caller writes.
      return inner ? splitTopLevel(inner).filter((p) => !/^\s*(self|cls)\s*$/.test(p)) : [];
    }
  }
  return null;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * True when the definition's signature has exactly the asked parameter types, each found as a
 * whole word in the parameter at its position (`Invoice` matches `final Invoice invoice` and
 * `inv: Invoice`); an empty list matches only a parameterless signature.
 */
export function paramsMatch(asked: string[], signature: string | null): boolean {
  const have = signatureParams(signature);
  if (!have || have.length !== asked.length) return false;
  // One space between words, none around punctuation: `Map<String,Integer>` equals `Map<String, Integer>`.
  const norm = (x: string) =>
    x
      .trim()
      .replace(/\s+/g, " ")
      .replace(/\s*([<,[])\s*/g, "$1")
      .replace(/\s+([>\]?*&])/g, "$1");
  return asked.every((t, i) => {
    const type = norm(t);
    const param = norm(have[i]);
    return new RegExp(`(^|[^\\p{L}\\p{N}_$])${escape(type)}($|[^\\p{L}\\p{N}_$])`, "u").test(param);
  });
}

/** A symbol-table row as far as qualification needs it. */
export interface QualifiableRow {
  path: string;
  container: string | null;
}

/** Lowercased with `_` and `-` dropped, so `invoice_formatter` equals `InvoiceFormatter`. */
function loose(s: string): string {
  return s.toLowerCase().replace(/[_-]/g, "");
}

/** The module names a file answers to: its stem, and its directory (a Go or Python package). */
function moduleNames(path: string): string[] {
  const segs = path.split("/");
  const file = segs[segs.length - 1].replace(/\.[^.]+$/, "");
  const dir = segs.length > 1 ? segs[segs.length - 2] : "";
  return [file, dir].filter(Boolean).map(loose);
}

/**
 * How `row` (already named `q.member`) is the qualified definition, or null when it is not: its container is the
 * innermost qualifier part (or the whole qualifier joined by `.`, or ends with it), or its file
 * is the module the qualifier names (stem or directory, loosely). Outer parts (a namespace or
 * package) must be the container of the class (`outerOf`, looked up by the caller) or appear
 * as directories (or the file stem) in the path. `caseSensitive` false compares containers case-insensitively.
 */
export function qualifierMatch(
  q: QualifiedName,
  row: QualifiableRow,
  outerOf: string | null | undefined,
  caseSensitive: boolean,
): "container" | "module" | null {
  if (!q.qualifier.length) return "container"; // format(Invoice): any owner
  const eq = (a: string, b: string) => (caseSensitive ? a === b : a.toLowerCase() === b.toLowerCase());
  const whole = q.qualifier.join(".");
  const inner = q.qualifier[q.qualifier.length - 1];
  const outer = q.qualifier.slice(0, -1);
  const container = row.container ?? "";
  if (container && (eq(container, whole) || container.endsWith(`.${whole}`))) return "container";
  // Directories and the file stem: Java packages, Python packages and modules.
  const dirs = [...row.path.split("/").slice(0, -1).map(loose), ...moduleNames(row.path)];
  const outerOk =
    outer.length === 0 ||
    (outerOf != null && (eq(outerOf, outer.join(".")) || outerOf.endsWith(`.${outer.join(".")}`))) ||
    outer.every((part) => dirs.includes(loose(part)));
  if (container && eq(container, inner)) return outerOk ? "container" : null;
  // pkg.func / module::item: a top-level definition in the named file or package.
  if (!container && moduleNames(row.path).includes(loose(inner)) && outer.every((part) => dirs.includes(loose(part)))) return "module";
  return null;
}
