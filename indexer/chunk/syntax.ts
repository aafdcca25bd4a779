/**
 * @module indexer/chunk/syntax
 *
 * The language-independent chunking rules over a tree-sitter tree, driven by a LanguageSpec:
 *
 * - each definition (function, method, class, interface, ...) is one chunk, with the doc
 *   comments and attributes right above it (a JSDoc block also across one blank line);
 * - a class longer than `maxLines` is split into its members plus header chunks (class line,
 *   fields, enum constants, closing brace) that carry the class's kind and name; namespaces, impls and modules
 *   are always split;
 * - a definition longer than `maxLines` becomes overlapping windows that keep its name;
 * - runs of tiny declarations (type aliases, constants) merge into one chunk, and runs of other
 *   statements (imports, stray code) into `module` chunks;
 * - definitions the parser wrapped in an ERROR node count if they parsed cleanly (a C function
 *   whose head `#if`/`#else` split in two starts at the `#if`);
 * - finally any non-blank line still uncovered becomes a `module` chunk, so coverage holds
 *   whatever the tree looks like.
 */
import type { Node, Tree } from "web-tree-sitter";
import type { Chunk, ChunkedFile, ChunkKind, SymbolDef } from "../store/contract";
import { isBlank, makeChunk, trimBlank } from "./lines";
import type { Definition, DefKind, LanguageSpec, ScopeContext } from "./spec";
import { MEMBER_ONLY_KINDS, ScopeReader, TINY_KINDS, type Item } from "./syntax-scope";
import { endLine, signatureOf, startLine, type ParsedSource } from "./syntax-text";
import { lineWindows, type WindowOptions } from "./windows";

export type { ParsedSource } from "./syntax-text";

/** Definitions of at most this many lines are "tiny" and merge with their neighbours. */
export const TINY_DEF_LINES = 3;

/** True for members that join their container's header chunk: fields, enum constants. */
function joinsHeader(def: Definition, kind: DefKind): boolean {
  return MEMBER_ONLY_KINDS.has(kind) || def.inHeader === true;
}
const CONSTRUCTOR_NAMES = new Set(["constructor", "__init__", "initialize", "__construct"]);

/** Limits for syntax chunking, in lines. */
export interface SyntaxOptions {
  maxLines: number;
  windows: WindowOptions;
  /**
   * The file's text and the text the parser was given, when they differ (LanguageSpec.parseTexts):
   * signatures are read from the file's text, so they keep what the parser did not see.
   */
  source?: ParsedSource;
}

/** Scope being chunked: where its loose lines go. */
interface Scope extends ScopeContext {
  /** Kind and symbol of chunks made of loose lines (module statements, class fields). */
  looseKind: ChunkKind;
  looseSymbol?: string;
  looseSignature?: string;
  /** Container of the split class itself (for its header chunks). */
  outerContainer?: string;
}

class SyntaxChunker extends ScopeReader {
  readonly chunks: Chunk[] = [];
  readonly symbols: SymbolDef[] = [];
  readonly opts: SyntaxOptions;

  constructor(spec: LanguageSpec, lines: string[], opts: SyntaxOptions) {
    super(spec, lines);
    this.opts = opts;
  }

  kindIn(def: Definition, ctx: ScopeContext): DefKind {
    if ((def.kind === "function" || def.kind === "method") && ctx.inClass) {
      const container = def.container ?? ctx.container;
      if (CONSTRUCTOR_NAMES.has(def.name) || (container && def.name === container)) return "constructor";
      return "method";
    }
    return def.kind;
  }

  recordSymbol(def: Definition, kind: DefKind, container: string | undefined, item: Item): void {
    if (def.noSymbol || !def.name) return;
    const outer = def.outer ?? def.node;
    const sym: SymbolDef = { name: def.name, kind, startLine: item.headStart ?? startLine(outer), endLine: endLine(outer) };
    if (container) sym.container = container;
    const signature = signatureOf(def, this.opts.source);
    if (signature) sym.signature = signature;
    if (item.doc) sym.doc = item.doc;
    this.symbols.push(sym);
    for (const alias of def.aliases ?? []) this.symbols.push({ ...sym, name: alias });
  }

  /**
   * Records the symbols of a definition's members without chunking them (a class kept whole,
   * a Go declaration group). `doc` is for members without a doc comment of their own.
   */
  memberSymbols(def: Definition, container: string, doc?: string): void {
    if (!def.members) return;
    const ctx: ScopeContext = { inClass: true, container };
    for (const item of this.items(this.children(def.members, ctx), ctx, false)) {
      if (item.type !== "def") continue;
      const d = item.def!;
      const c = d.container ?? container;
      this.recordSymbol(d, this.kindIn(d, ctx), c, item.doc || !doc ? item : { ...item, doc });
      if (d.members) this.memberSymbols(d, d.name || c);
    }
  }

  /** Chunks the named children of a scope; `head` and `tail` are the container's own lines. */
  scope(nodes: Node[], scope: Scope, head?: [number, number], tail?: [number, number]): void {
    const items = this.items(nodes, scope, true);
    if (head && head[0] <= head[1]) {
      // A bare header (`impl Foo {`, `namespace geo {`) joins the first member's chunk.
      const next = items[0];
      const bare = head[1] - head[0] < 2 && next?.type === "def" && !joinsHeader(next.def!, next.def!.kind);
      if (bare) next.start = head[0];
      else items.unshift({ type: "other", start: head[0], end: head[1] });
    }
    if (tail && tail[0] <= tail[1]) items.push({ type: "tail", start: tail[0], end: tail[1] });
    let loose: Item[] = [];
    let tiny: Item[] = [];
    const flushLoose = () => {
      if (loose.length) this.emitLoose(loose, scope);
      loose = [];
    };
    const flushTiny = () => {
      if (tiny.length) this.emitTiny(tiny, scope);
      tiny = [];
    };
    for (const item of items) {
      if (item.type !== "def") {
        flushTiny();
        loose.push(item);
        continue;
      }
      const def = item.def!;
      const kind = this.kindIn(def, scope);
      const container = def.container ?? scope.container;
      this.recordSymbol(def, kind, container, item);
      if (joinsHeader(def, kind)) {
        flushTiny();
        loose.push(item);
        continue;
      }
      // Comments alone between two members of a split class go with the member below, as a
      // decorator does, instead of becoming a chunk of their own named as the class.
      if (scope.looseSymbol && loose.length && loose.every((it) => it.type === "comment")) {
        item.start = loose[0].start;
        loose = [];
      }
      const lines = item.end - item.start + 1;
      const split = def.members && !def.keepWhole && (def.transparent || lines > this.opts.maxLines);
      // Before the tiny check: a short Go `const ( .. )` group merges with its neighbours but
      // its members are still symbols.
      if (!split && def.members) {
        if (def.group) this.memberSymbols(def, container ?? "", item.doc);
        else this.memberSymbols(def, def.name || container || "");
      }
      if (!split && TINY_KINDS.has(kind) && lines <= TINY_DEF_LINES) {
        flushLoose();
        tiny.push(item);
        continue;
      }
      flushLoose();
      flushTiny();
      if (split) {
        this.splitContainer(item, def, kind, container);
        continue;
      }
      const meta = { symbol: def.name || undefined, container, signature: signatureOf(def, this.opts.source) };
      const chunkKind = toChunkKind(kind);
      if (lines > this.opts.maxLines) {
        this.chunks.push(...lineWindows(this.lines, item.start, item.end, { size: this.opts.maxLines, overlap: this.opts.windows.overlap }, chunkKind, meta));
      } else {
        this.chunks.push(makeChunk(this.lines, item.start, item.end, chunkKind, meta));
      }
    }
    flushTiny();
    flushLoose();
  }

  /** A class too large for one chunk, or a namespace / impl: header and members separately. */
  splitContainer(item: Item, def: Definition, kind: DefKind, container: string | undefined): void {
    const name = def.name || container;
    const inner: Scope = def.transparent
      ? { inClass: def.kind !== "module", container: name, looseKind: "module" }
      : {
          inClass: true,
          container: name,
          looseKind: toChunkKind(kind),
          looseSymbol: def.name || undefined,
          looseSignature: signatureOf(def, this.opts.source),
          outerContainer: container,
        };
    const members = this.children(def.members!, inner);
    if (!members.length) {
      this.scope([], inner, [item.start, item.end]);
      return;
    }
    // A first member that starts on the header line owns that line.
    const head: [number, number] = [item.start, startLine(members[0]) - 1];
    const tail: [number, number] = [endLine(members[members.length - 1]) + 1, item.end];
    this.scope(members, inner, head, tail);
  }

  /** Statements, fields or a container's own lines: one chunk, or windows when long. */
  emitLoose(items: Item[], scope: Scope): void {
    const range = trimBlank(this.lines, items[0].start, items[items.length - 1].end);
    if (!range) return;
    const prev = this.chunks[this.chunks.length - 1];
    if (prev && range[0] >= prev.startLine && range[1] <= prev.endLine) return;
    // A closing brace alone joins the chunk before it rather than becoming its own, and so do
    // comments after a split class's last member (with its closing brace).
    const braceOnly = items.length === 1 && items[0].type === "tail" && range[1] - range[0] < 2;
    const trailingComments =
      !!scope.looseSymbol && items.some((it) => it.type === "comment") && items.every((it) => it.type === "comment" || it.type === "tail");
    if ((braceOnly || trailingComments) && prev && prev.endLine < range[0]) {
      this.chunks[this.chunks.length - 1] = makeChunk(this.lines, prev.startLine, range[1], prev.kind, prev);
      return;
    }
    // Header chunks of a split class are named after the class, not contained in it.
    const container = scope.looseSymbol ? scope.outerContainer : scope.container;
    const meta = { symbol: scope.looseSymbol, container, signature: scope.looseSignature };
    if (range[1] - range[0] + 1 > this.opts.maxLines) {
      this.chunks.push(...lineWindows(this.lines, range[0], range[1], { size: this.opts.maxLines, overlap: this.opts.windows.overlap }, scope.looseKind, meta));
    } else {
      this.chunks.push(makeChunk(this.lines, range[0], range[1], scope.looseKind, meta));
    }
  }

  /** A run of tiny declarations: one chunk naming each of them. */
  emitTiny(items: Item[], scope: Scope): void {
    const start = items[0].start;
    const end = items[items.length - 1].end;
    const names = items.map((i) => i.def!.name).filter(Boolean);
    const allTypes = items.every((i) => i.def!.kind === "type");
    const kind: ChunkKind = allTypes ? "type" : "module";
    const meta = {
      symbol: names.join(", ") || undefined,
      container: scope.container,
      signature: items.length === 1 ? signatureOf(items[0].def!, this.opts.source) : undefined,
    };
    this.chunks.push(makeChunk(this.lines, start, end, kind, meta));
  }

  /** Adds a `module` chunk for each run of non-blank lines no chunk covers. */
  coverRest(): void {
    const covered = new Uint8Array(this.lines.length + 2);
    for (const c of this.chunks) covered.fill(1, c.startLine, c.endLine + 1);
    let runStart = 0;
    for (let line = 1; line <= this.lines.length + 1; line++) {
      const gap = line <= this.lines.length && !covered[line];
      if (gap && !runStart && !isBlank(this.lines[line - 1])) runStart = line;
      if (!gap && runStart) {
        const r = trimBlank(this.lines, runStart, line - 1);
        if (r) this.chunks.push(makeChunk(this.lines, r[0], r[1], "module"));
        runStart = 0;
      }
    }
    this.chunks.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  }
}

function toChunkKind(kind: DefKind): ChunkKind {
  return kind === "field" || kind === "variable" || kind === "constant" ? "module" : kind;
}

/**
 * Chunks a parsed file. Returns null when the tree is useless (it has errors and no
 * definition was recognised), so the caller can fall back to line windows.
 */
export function chunkTree(tree: Tree, spec: LanguageSpec, lines: string[], language: string, opts: SyntaxOptions): ChunkedFile | null {
  const root = tree.rootNode;
  const chunker = new SyntaxChunker(spec, lines, opts);
  const top: Scope = { inClass: false, looseKind: "module" };
  chunker.scope(chunker.children(root, top), top);
  if (root.hasError && chunker.symbols.length === 0) return null;
  chunker.coverRest();
  return { language, chunks: chunker.chunks, symbols: chunker.symbols, imports: chunker.imports };
}
