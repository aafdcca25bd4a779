/**
 * @module worker/services/suggest-tests/signature
 *
 * Parameters and return type read from a symbol-table signature (the chunker's text of the
 * definition's head), per language family. Pure string work on one line.
 */
import type { Param } from "./types";

/** Splits `text` on commas outside (), [], {}, <> and quotes. */
export function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = "";
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if ("([{<".includes(ch)) depth++;
    else if (")]}>".includes(ch) && depth > 0) depth--;
    else if (ch === "," && depth === 0) {
      out.push(cur.trim());
      cur = "";
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Index of the `)` closing the `(` at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/** The parameter list and what follows it, for the definition named `name` in `sig`. */
function paramSpan(sig: string, name: string): { inner: string; rest: string; before: string } | null {
  const m = new RegExp(`(?:^|[^\\w$])${name.replace(/[$]/g, "\\$")}\\s*(?:<[^()]*>|\\[[^()]*\\])?\\s*\\(`).exec(sig);
  const open = m ? m.index + m[0].length - 1 : sig.indexOf("(");
  if (open < 0) return null;
  const close = closing(sig, open);
  if (close < 0) return null;
  return { inner: sig.slice(open + 1, close), rest: sig.slice(close + 1).trim(), before: sig.slice(0, m ? m.index + 1 : open) };
}

/** Parameters and return type of `sig` for `language` (a detectLanguage name); empty when unreadable. */
export function parseSignature(sig: string | null, name: string, language: string): { params: Param[]; returnType: string | null; isAsync: boolean } {
  const none = { params: [], returnType: null, isAsync: false };
  if (!sig) return none;
  const span = paramSpan(sig, name);
  if (!span) return none;
  const parts = splitTopLevel(span.inner);
  const isAsync = /\basync\b/.test(span.before);
  if (language === "python") {
    const params = parts
      .filter((p) => !/^(self|cls)\b/.test(p) && p !== "*" && p !== "/")
      .map((p) => {
        const [head] = p.split("=");
        const [n, t] = head.split(":");
        return { name: n.replace(/^\*+/, "").trim(), type: t?.trim() || null };
      });
    const ret = /^->\s*(.+?):?$/.exec(span.rest);
    return { params, returnType: ret ? ret[1].trim() : null, isAsync };
  }
  if (language === "go") {
    // `a, b int` shares the type: fill names without a type from the next typed one.
    const raw = parts.map((p) => {
      const m = /^(\w+)\s+(.+)$/.exec(p);
      return m ? { name: m[1], type: m[2].trim() as string | null } : { name: p, type: null as string | null };
    });
    for (let i = raw.length - 2; i >= 0; i--) if (raw[i].type === null) raw[i].type = raw[i + 1].type;
    const ret = span.rest.replace(/\{\s*$/, "").trim();
    return { params: raw, returnType: ret || null, isAsync };
  }
  if (language === "java" || language === "csharp") {
    const params = parts.map((p) => {
      const cleaned = p.replace(/@\w+(\([^)]*\))?\s*/g, "").replace(/\bfinal\s+/, "");
      const m = /^(.+?)\s+(\w+)$/.exec(cleaned);
      return m ? { name: m[2], type: m[1].trim() } : { name: cleaned, type: null };
    });
    const head = span.before.trim().split(/\s+/);
    const ret = head.length >= 2 ? head[head.length - 1] : null;
    return { params, returnType: ret && !/^(public|private|protected|static|final)$/.test(ret) ? ret : null, isAsync };
  }
  // TypeScript / JavaScript.
  const params = parts.map((p) => {
    const cleaned = p.replace(/^(?:(?:public|private|protected|readonly|override)\s+)+/, "").replace(/^\.\.\./, "");
    const [head] = splitAssign(cleaned);
    const colon = head.indexOf(":");
    return colon < 0
      ? { name: head.replace("?", "").trim(), type: null }
      : { name: head.slice(0, colon).replace("?", "").trim(), type: head.slice(colon + 1).trim() };
  });
  const ret = /^:\s*(.+?)\s*(?:\{|=>)?\s*$/.exec(span.rest);
  return { params, returnType: ret ? ret[1] : null, isAsync };
}

/** `name: T = value` → [`name: T`, `value`], ignoring `=` in `=>`. */
function splitAssign(p: string): string[] {
  const i = p.search(/=(?!>)/);
  return i < 0 ? [p] : [p.slice(0, i).trim(), p.slice(i + 1).trim()];
}
