/**
 * @module indexer/chunk/syntax-scope
 *
 * The first half of syntax chunking (syntax.ts): what a scope holds. The named children of a
 * scope node (`inline` nodes spliced in, well-formed definitions taken out of ERROR nodes) become
 * items, and doc comments and attributes directly above a definition join it.
 */
import type { Node } from "web-tree-sitter";
import type { DefKind, Definition, LanguageSpec, ScopeContext } from "./spec";
import { isBlank } from "./lines";
import { cleanComment, collapse, endLine, startLine } from "./syntax-text";

export const TINY_KINDS: ReadonlySet<DefKind> = new Set(["type", "constant", "variable"]);
export const MEMBER_ONLY_KINDS: ReadonlySet<DefKind> = new Set(["field"]);
const MAX_IMPORT_CHARS = 300;

export type ItemType = "def" | "comment" | "attribute" | "other" | "tail";

export interface Item {
  type: ItemType;
  start: number;
  end: number;
  node?: Node;
  def?: Definition;
  /** Attached comments (doc) for a def. */
  doc?: string;
  /** First line of a def whose head starts before its node (LanguageSpec.headStart). */
  headStart?: number;
}

/**
 * Reads a scope's named children into items (definitions, comments, attributes, other lines),
 * with doc comments attached to the definitions below them; SyntaxChunker (syntax.ts) chunks
 * what it reads. Collects the file's imports on the way.
 */
export class ScopeReader {
  readonly imports: string[] = [];
  /** Ids of nodes taken out of ERROR nodes: they define something only if they parsed cleanly. */
  readonly recovered = new Set<number>();

  readonly spec: LanguageSpec;
  readonly lines: string[];

  // Plain fields, not parameter properties: Node's type stripping (the bench) needs erasable syntax.
  constructor(spec: LanguageSpec, lines: string[]) {
    this.spec = spec;
    this.lines = lines;
  }

  /** Classifies the named children of a scope into items, attaching doc comments to defs. */
  items(nodes: Node[], ctx: ScopeContext, collectImports: boolean): Item[] {
    const out: Item[] = [];
    for (const node of nodes) {
      const item: Item = { type: "other", start: startLine(node), end: endLine(node), node };
      if (this.spec.comments.has(node.type)) item.type = "comment";
      else if (this.spec.attributes?.has(node.type)) item.type = "attribute";
      else if (this.spec.isImport(node)) {
        if (collectImports) this.imports.push(collapse(node.text, MAX_IMPORT_CHARS));
      } else {
        const def = this.recovered.has(node.id) && node.hasError ? null : this.spec.define(node, ctx);
        if (def) {
          item.type = "def";
          item.def = def;
        }
      }
      out.push(item);
    }
    if (this.spec.headStart) this.joinSplitHeads(out);
    // Attach comments and attributes directly above a definition (no blank line between).
    // A comment that starts on the line where earlier code ends trails that code instead.
    const attachable = (it: Item | undefined) => it?.type === "comment" || it?.type === "attribute";
    for (let i = 0; i < out.length; i++) {
      const item = out[i];
      if (item.type !== "def") continue;
      const docs: string[] = [];
      let j = i - 1;
      while (j >= 0 && attachable(out[j]) && (out[j].end >= out[j + 1].start - 1 || (j === i - 1 && this.detachedDoc(out, j)))) {
        const before = out[j - 1];
        if (before && !attachable(before) && before.end >= out[j].start) break;
        if (out[j].type === "comment") docs.unshift(out[j].node!.text);
        j--;
      }
      if (j < i - 1) {
        item.start = Math.min(item.start, out[j + 1].start);
        out.splice(j + 1, i - 1 - j);
        i = j + 1;
      }
      const doc = [docs.length ? cleanComment(docs.join("\n")) : "", item.def!.doc ?? ""].filter(Boolean).join("\n");
      if (doc) item.doc = doc;
    }
    return out;
  }

  /**
   * True if comment `out[j]` is a doc comment (spec.detachedDoc) one blank line above the
   * definition `out[j + 1]`, and not part of the comments that open the file (its header).
   * Tiny kinds and fields are left out: a section comment above a run of constants
   * (`/** Module variables. *\/`) would otherwise split the run.
   */
  detachedDoc(out: Item[], j: number): boolean {
    const re = this.spec.detachedDoc;
    const comment = out[j];
    const kind = out[j + 1].def!.kind;
    if (!re || TINY_KINDS.has(kind) || MEMBER_ONLY_KINDS.has(kind) || comment.type !== "comment") return false;
    if (comment.end !== out[j + 1].start - 2 || !isBlank(this.lines[comment.end])) return false;
    const header = out.slice(0, j).every((it) => it.type === "comment") && this.lines.slice(0, out[0].start - 1).every(isBlank);
    return !header && re.test(comment.node!.text);
  }

  /**
   * Moves a definition's start up to where its head really begins (spec.headStart)
   * and drops the loose items in between, unless a definition or a node crossing that line is
   * in the way.
   */
  joinSplitHeads(out: Item[]): void {
    for (let i = 0; i < out.length; i++) {
      const item = out[i];
      const head = item.type === "def" ? this.spec.headStart!(item.def!.node) : null;
      if (!head) continue;
      const start = startLine(head);
      let j = i;
      while (j > 0 && out[j - 1].type !== "def" && out[j - 1].start >= start) j--;
      if (j > 0 && out[j - 1].end >= start) continue;
      item.start = item.headStart = Math.min(item.start, start);
      out.splice(j, i - j);
      i = j;
    }
  }

  /**
   * The named children of a scope node, with the children of `inline` nodes spliced in, and
   * those of ERROR nodes holding a well-formed definition: one malformed region (a C function
   * head split by `#if`/`#else`) can make the parser wrap a whole file in ERROR.
   */
  children(node: Node, ctx: ScopeContext): Node[] {
    const out: Node[] = [];
    for (const c of node.namedChildren) {
      if (!c) continue;
      const error = c.type === "ERROR" && this.definesInside(c, ctx);
      if (!error && !this.spec.inline?.has(c.type)) {
        out.push(c);
        continue;
      }
      for (const inner of this.children(c, ctx)) {
        if (error) this.recovered.add(inner.id);
        out.push(inner);
      }
    }
    return out;
  }

  /** True if an ERROR node holds a definition that parsed cleanly. */
  definesInside(error: Node, ctx: ScopeContext): boolean {
    return error.namedChildren.some((c) => c && (c.type === "ERROR" ? this.definesInside(c, ctx) : !c.hasError && this.spec.define(c, ctx) !== null));
  }
}
