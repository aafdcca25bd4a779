/** Renders lines of pieces (pieces.ts, highlight.ts) as DOM, with textContent only. */
import type { Piece } from "./pieces";

/** Fills `target` with the pieces of one line: spans for styled runs, `<mark>` for query terms. */
export function renderPieces(target: HTMLElement, pieces: Piece[]): void {
  target.replaceChildren();
  for (const p of pieces) {
    let node: Node = document.createTextNode(p.text);
    if (p.cls) {
      const span = document.createElement("span");
      span.className = p.cls;
      span.append(node);
      node = span;
    }
    if (p.mark) {
      const mark = document.createElement("mark");
      mark.append(node);
      node = mark;
    }
    target.append(node);
  }
}
