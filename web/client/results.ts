/**
 * One search result as a list item: a signed link `repo/path:start-end` that opens the
 * source view on those lines, a copy button, the symbol, the snippet (lines of pieces: plain
 * or highlighted, the query's terms marked; snippet-highlighter.ts restyles plain ones later),
 * and (behind a disclosure) why it ranks there in words, the raw explain record behind a second one.
 */
import type { SearchResult } from "../../worker/search/types";
import { signedSourceUrl } from "./api";
import { renderPieces } from "./code-view";
import { el } from "./dom";
import type { Piece } from "./pieces";
import { channelLines, stageLines, type ExplainRecord } from "./why-words";

/** A result as `GET /api/search` returns it: the server's own type (worker/search/schema.ts). */
export type WireResult = SearchResult;

/** `repo/path:start-end`, what the copy button copies and the link shows. */
export function citation(r: Pick<WireResult, "repo" | "path" | "startLine" | "endLine">): string {
  return `${r.repo ? `${r.repo}/` : ""}${r.path}:${r.startLine}-${r.endLine}`;
}

function snippetBlock(r: WireResult, lines: Piece[][]): HTMLElement {
  const code = el("code");
  lines.forEach((pieces, i) => {
    const line = el("span", { className: "line" });
    renderPieces(line, pieces);
    code.append(el("span", { className: "ln", "aria-hidden": "true", text: String(r.startLine + i) }), line, "\n");
  });
  return el("pre", { className: "code hljs", "aria-label": `Code of ${r.path} from line ${r.startLine}` }, [code]);
}

/** Renders `explain` generically: nested objects as definition lists, so new fields need no page change. */
function explainBlock(value: unknown, depth = 0): HTMLElement {
  if (value === null || typeof value !== "object" || depth > 4) return el("code", { text: JSON.stringify(value) });
  const dl = el("dl", { className: "explain" });
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) dl.append(el("dt", { text: k }), el("dd", {}, [explainBlock(v, depth + 1)]));
  return dl;
}

/**
 * "Why this result": the channels and ranks, the fused score and what each ranking stage did,
 * in words (why-words.ts); the raw `explain` record behind a second disclosure.
 */
function whyBlock(r: WireResult): HTMLElement {
  const explain = r.explain as ExplainRecord | undefined;
  const lines = [...channelLines(r.ranks), ...(explain ? stageLines(explain.stages) : [])];
  return el("details", { className: "why" }, [
    el("summary", { text: "Why this result" }),
    el(
      "ul",
      { className: "why-words" },
      lines.map((text) => el("li", { text })),
    ),
    el("p", { text: `Score ${r.score.toFixed(4)}: Reciprocal Rank Fusion of the channel ranks, times each stage's factor.` }),
    explain !== undefined ? el("details", { className: "raw-explain" }, [el("summary", { text: "Raw ranking record" }), explainBlock(explain)]) : null,
  ]);
}

async function copy(text: string, button: HTMLButtonElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Copy failed";
  }
  setTimeout(() => (button.textContent = "Copy"), 1500);
}

/**
 * The list item of one result, its snippet drawn from `lines` (one array of pieces per line of
 * `r.snippet`); the link's signed URL is filled in when the server answers.
 */
export function renderResult(r: WireResult, lines: Piece[][]): HTMLLIElement {
  const place = citation(r);
  // Focusable before its signed href arrives, so j/k and "More results" can move onto it.
  const link = el("a", { className: "source-link", text: place, tabindex: 0 });
  const copyButton = el("button", { type: "button", className: "copy", "aria-label": `Copy ${place}`, text: "Copy" });
  copyButton.addEventListener("click", () => void copy(place, copyButton));
  const meta = [r.symbol ? `${r.kind} ${r.symbol}` : r.kind, r.language].filter(Boolean).join(" · ");
  const item = el("li", { className: "result", "data-chunk": r.chunkId }, [
    el("div", { className: "result-head" }, [el("h2", {}, [link]), copyButton]),
    el("p", { className: "meta", text: meta }),
    snippetBlock(r, lines),
    r.snippetTruncated ? el("p", { className: "truncated", text: "Snippet shortened; open the source for the rest." }) : null,
    whyBlock(r),
  ]);
  // Signed after this task, so the results are drawn before twenty link requests are sent.
  setTimeout(
    () =>
      void signedSourceUrl(r.repo, r.path, r.startLine, r.endLine, r.ref).then((url) => {
        if (url) link.href = url;
      }),
    0,
  );
  return item;
}

/** The elements of a rendered result's snippet lines, in order (what snippet-highlighter.ts restyles). */
export function snippetLineElements(item: HTMLElement): HTMLElement[] {
  return [...item.querySelectorAll<HTMLElement>("pre .line")];
}
