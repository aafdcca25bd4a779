/**
 * @module worker/search/path-glob
 *
 * Path globs for grep, file listings, search's `path_prefix` and connection filters, with
 * picomatch's meaning: `**` crosses folders, `{a,b}`, `{1..3}`, `[a-z]`, `@(a|b)`-style extglobs
 * and `(a|b)` groups work, dotfiles match, a leading `!` negates, and a glob without `/`
 * matches the file name at any depth (as ripgrep's `-g` and .gitignore do: `*.proto` is
 * `**\/*.proto`). Separators are always `/` (indexed paths are POSIX).
 *
 * A glob is translated into an RE2 program (re2js) rather than a JavaScript RegExp: picomatch's
 * RegExps backtrack polynomially (degree k for k `*?` pairs), so one `**\/*?*?*?…` froze the
 * Worker (issue #43). RE2 matches in time linear in the path, and a glob may hold at most
 * GLOB_MAX_WILDCARDS wildcards, so one path check costs at most O(path length x glob length).
 * Errors: `invalid_input` naming the field (too many wildcards, `!(…)`, a too large `{a..b}`).
 * Pure.
 */
import { RE2JS } from "re2js";
import { CodeSearchError } from "../../kernel/errors";

/** Most wildcards (`*`, `**`, `?`, extglob groups) in one glob: real globs use a handful; the cap bounds the RE2 program. */
export const GLOB_MAX_WILDCARDS = 16;
/** Most items a `{a..b}` range expands to. */
export const GLOB_MAX_RANGE_ITEMS = 256;

/** Whether `path` is a glob (has `*`, `?`, `[` or `{`) rather than a plain prefix. */
export function isGlob(path: string): boolean {
  return /[*?[{]/.test(path);
}

/** Options of `compileGlob`. */
export interface GlobOptions {
  /** Match case-insensitively (connection filters: GitHub and GitLab names fold case). */
  nocase?: boolean;
  /** The request field the glob came from, named in errors (default "path"). */
  field?: string;
}

/** A compiled glob: the path predicate and the literal folder prefix every match starts with ("" when none). */
export interface CompiledGlob {
  test: (path: string) => boolean;
  prefix: string;
}

const quote = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");

/** Index of the bracket closing the one opened at `open` (`(`/`)` or `{`/`}`), honouring nesting and escapes; -1 when unclosed. */
function closing(s: string, open: number, o: string, c: string): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === o) depth++;
    else if (s[i] === c && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `]` closing the class opened at `open` (a leading `]` and `[:alpha:]` are inside), or -1. */
function classEnd(s: string, open: number): number {
  let i = open + 1;
  if (s[i] === "!" || s[i] === "^") i++;
  if (s[i] === "]") i++;
  for (; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "[" && s[i + 1] === ":") {
      const end = s.indexOf(":]", i + 2);
      if (end < 0) return -1;
      i = end + 1;
    } else if (s[i] === "]") return i;
  }
  return -1;
}

/** `s` split at top-level `sep` (outside (), {}, [] and escapes). */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "\\") i++;
    else if (ch === "(" || ch === "{" || ch === "[") depth++;
    else if (ch === ")" || ch === "}" || ch === "]") depth = Math.max(0, depth - 1);
    else if (ch === sep && depth === 0) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out;
}

/** The items of a `{a..b}` range (numbers or single characters), or null when `body` is not one. */
function rangeItems(body: string, field: string): string[] | null {
  const m = /^(-?\d+|[^.])\.\.(-?\d+|[^.])$/.exec(body);
  if (!m) return null;
  const numeric = /^-?\d+$/.test(m[1]) && /^-?\d+$/.test(m[2]);
  const [a, b] = numeric ? [Number(m[1]), Number(m[2])] : [m[1].codePointAt(0)!, m[2].codePointAt(0)!];
  if (Math.abs(b - a) + 1 > GLOB_MAX_RANGE_ITEMS) {
    throw new CodeSearchError("invalid_input", `${field}: the range {${body}} has more than ${GLOB_MAX_RANGE_ITEMS} items; list fewer.`);
  }
  const step = a <= b ? 1 : -1;
  const out: string[] = [];
  for (let v = a; v !== b + step; v += step) out.push(numeric ? String(v) : String.fromCodePoint(v));
  return out;
}

/** Translates glob text into RE2 source; counts wildcards in `count`. */
function translate(g: string, field: string, count: { n: number }): string {
  let out = "";
  for (let i = 0; i < g.length; i++) {
    const ch = g[i];
    const next = g[i + 1];
    const atStart = i === 0 || g[i - 1] === "/";
    if ("@?+*!".includes(ch) && next === "(" && closing(g, i + 1, "(", ")") > 0) {
      if (ch === "!")
        throw new CodeSearchError("invalid_input", `${field}: negated extglobs "!(…)" are not supported; use a leading "!" to negate the whole glob.`);
      const end = closing(g, i + 1, "(", ")");
      count.n++;
      const alts = splitTop(g.slice(i + 2, end), "|").map((a) => translate(a, field, count));
      out += `(?:${alts.join("|")})${ch === "@" ? "" : ch}`;
      i = end;
    } else if (ch === "\\") {
      out += i + 1 < g.length ? quote(g[++i]) : "\\\\";
    } else if (ch === "*") {
      let j = i;
      while (g[j + 1] === "*") j++;
      count.n++;
      const globstar = j > i && atStart && (j + 1 === g.length || g[j + 1] === "/");
      if (globstar && g[j + 1] === "/") {
        out += "(?:.*/)?"; // zero or more whole folders
        j++;
      } else if (globstar) out += out.endsWith("/") ? "" : ".*";
      else out += atStart && (j + 1 === g.length || g[j + 1] === "/") ? "[^/]+" : "[^/]*";
      i = j;
    } else if (ch === "/" && g.slice(i + 1) === "**") {
      count.n++;
      out += "(?:/.*)?"; // "a/**" is a, a/ and everything below
      i = g.length;
    } else if (ch === "?") {
      count.n++;
      out += "[^/]";
    } else if (ch === "[" && classEnd(g, i) > 0) {
      const end = classEnd(g, i);
      let body = g.slice(i + 1, end);
      const negated = body[0] === "!" || body[0] === "^";
      if (negated) body = body.slice(1);
      out += `[${negated ? "^/" : ""}${body.replace(/^\]/, "\\]")}]`;
      i = end;
    } else if (ch === "{" && closing(g, i, "{", "}") > i) {
      const end = closing(g, i, "{", "}");
      const body = g.slice(i + 1, end);
      const alts = splitTop(body, ",");
      const range = alts.length === 1 ? rangeItems(body, field) : null;
      if (alts.length > 1) out += `(?:${alts.map((a) => translate(a, field, count)).join("|")})`;
      else if (range) out += `(?:${range.map(quote).join("|")})`;
      else out += quote(`{${body}}`);
      i = end;
    } else if (ch === "(" && closing(g, i, "(", ")") > i) {
      const end = closing(g, i, "(", ")");
      out += `(?:${splitTop(g.slice(i + 1, end), "|")
        .map((a) => translate(a, field, count))
        .join("|")})`;
      i = end;
    } else out += quote(ch);
  }
  return out;
}

/** The literal leading folders of a glob with `/` ("src/router/" of "src/router/*.ts"), "" when none. */
function literalPrefix(glob: string): string {
  const segs = glob.split("/").slice(0, -1);
  const literal: string[] = [];
  for (const s of segs) {
    if (/[*?[\]{}()!\\@+|]/.test(s) || s === "") break;
    literal.push(s);
  }
  return literal.length ? `${literal.join("/")}/` : "";
}

/**
 * A predicate over repo-relative paths for `glob`, and the literal folder prefix every match
 * starts with. Throws `invalid_input` (naming `options.field`) for more than GLOB_MAX_WILDCARDS
 * wildcards, a negated extglob or a too large range.
 */
export function compileGlob(glob: string, options: GlobOptions = {}): CompiledGlob {
  const field = options.field ?? "path";
  let body = glob;
  let negated = false;
  while (body.startsWith("!") && body[1] !== "(") {
    negated = !negated;
    body = body.slice(1);
  }
  const count = { n: 0 };
  const source = translate(body.includes("/") ? body : `**/${body}`, field, count);
  const wildcards = body.includes("/") ? count.n : count.n - 1; // the implied **/ is not the caller's
  if (wildcards > GLOB_MAX_WILDCARDS) {
    throw new CodeSearchError(
      "invalid_input",
      `${field}: a glob may hold at most ${GLOB_MAX_WILDCARDS} wildcards (*, **, ?, extglob groups); this one has ${wildcards}. Name literal folders or file names instead.`,
    );
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(`^(?:${source})$`, RE2JS.DOTALL | (options.nocase ? RE2JS.CASE_INSENSITIVE : 0));
  } catch {
    throw new CodeSearchError("invalid_input", `${field}: not a valid glob (check its [classes]); e.g. "src/**/*.ts" or "*.{ts,tsx}".`);
  }
  const test = (path: string) => re.test(path) !== negated;
  return { test, prefix: negated ? "" : body.includes("/") ? literalPrefix(body) : "" };
}
