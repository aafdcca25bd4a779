/**
 * @module indexer/chunk/c-code
 *
 * Reading C and C++ source for the macro rules (c-macros.ts): the text with comments, literals
 * and preprocessor lines blanked (`codeOnly`), and small scanners over it (words, `a::b<T>`
 * paths, balanced `()` and `<>`). Every function takes that blanked text and an offset.
 */

/** How far back the `(` of a `)` is searched. */
export const MAX_PAREN_SCAN_CHARS = 4000;

/**
 * The text with comments, string and character literals and preprocessor lines (continuation
 * lines included) replaced by spaces, newlines kept: what the macro rules read.
 */
export function codeOnly(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  };
  let lineStart = true;
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === "\n") {
      lineStart = true;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    let end = i + 1;
    if (c === "#" && lineStart) {
      while (end < text.length && !(text[end] === "\n" && text[end - 1] !== "\\" && !(text[end - 1] === "\r" && text[end - 2] === "\\"))) end++;
    } else if (c === "/" && text[i + 1] === "/") {
      while (end < text.length && !(text[end] === "\n" && text[end - 1] !== "\\")) end++;
    } else if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      end = close < 0 ? text.length : close + 2;
    } else if (c === '"' && /R$/.test(text.slice(Math.max(0, i - 1), i)) && /^"[^\s()\\]{0,16}\(/.test(text.slice(i, i + 19))) {
      const delim = text.slice(i + 1, text.indexOf("(", i));
      const close = text.indexOf(`)${delim}"`, i);
      end = close < 0 ? text.length : close + delim.length + 2;
    } else if (c === '"' || (c === "'" && !/[0-9]/.test(text[i - 1] ?? ""))) {
      // A `'` right after a digit is a digit separator (`1'000`), not a character literal.
      while (end < text.length && text[end] !== c && text[end] !== "\n") end += text[end] === "\\" ? 2 : 1;
      end = Math.min(text.length, end + 1);
    } else {
      lineStart = false;
      i = end;
      continue;
    }
    blank(i, end);
    lineStart = false;
    i = end;
  }
  return out.join("");
}

/** The end of balanced `<..>` starting at `at` (a `<`), or -1; `(..)` inside is skipped whole. */
export function skipAngles(code: string, at: number): number {
  let angles = 0;
  let parens = 0;
  for (let i = at; i < code.length && i < at + MAX_PAREN_SCAN_CHARS; i++) {
    const c = code[i];
    if (c === "(" || c === "[") parens++;
    else if (c === ")" || c === "]") parens--;
    else if (c === ";" || c === "{" || c === "}") return -1;
    else if (parens === 0 && c === "<") angles++;
    else if (parens === 0 && c === ">") {
      if (--angles === 0) return i + 1;
    }
  }
  return -1;
}

/** Reads `a::b<T>::c` at `at` (spaces allowed around `::`); returns its end and its last word. */
export function readPath(code: string, at: number): { end: number; first: string } | null {
  const first = /^[A-Za-z_]\w*/.exec(code.slice(at, at + 200));
  if (!first) return null;
  let end = at + first[0].length;
  for (;;) {
    const ws = /^\s*/.exec(code.slice(end, end + 200))![0].length;
    if (code[end + ws] === "<") {
      const close = skipAngles(code, end + ws);
      if (close < 0) return { end, first: first[0] };
      end = close;
      continue;
    }
    const seg = /^\s*::\s*(?:template\s+)?[A-Za-z_~]\w*/.exec(code.slice(end, end + 200));
    if (!seg) return { end, first: first[0] };
    end += seg[0].length;
  }
}

/** The word at `at` (after spaces), with where it ends. */
export function wordAt(code: string, at: number): { word: string; start: number; end: number } {
  const m = /^\s*([A-Za-z_]\w*)?/.exec(code.slice(at, at + 200))!;
  const start = at + m[0].length - (m[1]?.length ?? 0);
  return { word: m[1] ?? "", start, end: at + m[0].length };
}

/** The first non-space character at or after `at`, and its index. */
export function nextChar(code: string, at: number): { c: string; i: number } {
  let i = at;
  while (i < code.length && /\s/.test(code[i])) i++;
  return { c: code[i] ?? "", i };
}

/** The index of the `(` matching the `)` at `close`, or -1. */
export function openParen(code: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0 && i > close - MAX_PAREN_SCAN_CHARS; i--) {
    if (code[i] === ")") depth++;
    else if (code[i] === "(" && --depth === 0) return i;
    else if (code[i] === ";" || code[i] === "{" || code[i] === "}") return -1;
  }
  return -1;
}

/** The index after the `)` matching the `(` at `open`, or -1. */
export function closeParen(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length && i < open + MAX_PAREN_SCAN_CHARS; i++) {
    if (code[i] === "(") depth++;
    else if (code[i] === ")" && --depth === 0) return i + 1;
    else if (code[i] === ";" || code[i] === "{" || code[i] === "}") return -1;
  }
  return -1;
}

/** The word that ends at `end`, spaces allowed after it (`public  :` -> `public`), or "". */
export function wordBefore(code: string, end: number): string {
  return /([A-Za-z_]\w*)\s*$/.exec(code.slice(Math.max(0, end - 40), end))?.[1] ?? "";
}
