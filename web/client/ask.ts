/**
 * The ask panel of the search page: `POST /api/ask` with `stream: true`, showing the draft as
 * it streams, then the verified answer. Citations `[E1 path:start-end]` that the server
 * verified become links into the source view; refused and ungrounded answers are shown as
 * such; the usage line gives tokens and the estimated cost. A server without the answer
 * feature (404) or without a model provider (503) says so in words.
 */
import { currentSession, errorText, signedSourceUrl, type JsonReply } from "./api";
import { byId, el } from "./dom";
import { readSse } from "./sse";

interface Citation {
  evidence: string;
  repo: string;
  path: string;
  startLine: number;
  endLine: number;
}

/** The final answer (worker/services/ask-schema.ts AskOutput, the fields shown here). */
export interface AskReply {
  status: "answered" | "refused" | "ungrounded";
  answer: string;
  reason: string | null;
  citations: Citation[];
  rejectedCitations: unknown[];
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number | null };
  model: string;
}

/** `[E1 path:12-30]` (the answer's citation form) with the evidence label and the range. */
const CITE_RE = /\[(E\d+) ([^\]\s]+):(\d+)-(\d+)\]/g;

/** The answer text with verified citations as links (textContent only). */
function answerNodes(reply: AskReply): HTMLElement {
  const out = el("div", { className: "answer-text" });
  let at = 0;
  for (const m of reply.answer.matchAll(CITE_RE)) {
    out.append(reply.answer.slice(at, m.index));
    const cite = reply.citations.find((c) => c.evidence === m[1] && c.path === m[2] && c.startLine === Number(m[3]) && c.endLine === Number(m[4]));
    if (cite) {
      const a = el("a", { className: "citation", text: `${cite.path}:${cite.startLine}-${cite.endLine}` });
      void signedSourceUrl(cite.repo, cite.path, cite.startLine, cite.endLine).then((url) => url && (a.href = url));
      out.append(a);
    } else out.append(m[0]);
    at = (m.index ?? 0) + m[0].length;
  }
  out.append(reply.answer.slice(at));
  return out;
}

/** "1,234 input + 456 output tokens · about $0.0123 · claude-…" */
export function usageLine(u: AskReply["usage"], model: string): string {
  const n = (x: number) => x.toLocaleString("en");
  const cache = u.cacheReadTokens || u.cacheWriteTokens ? ` (${n(u.cacheReadTokens)} read from cache, ${n(u.cacheWriteTokens)} written)` : "";
  const cost = u.costUsd === null ? "cost unknown for this model" : `about $${u.costUsd.toFixed(4)}`;
  return `${n(u.inputTokens)} input + ${n(u.outputTokens)} output tokens${cache} · ${cost} · ${model}`;
}

function renderFinal(target: HTMLElement, reply: AskReply): void {
  const label = { answered: "Answer", refused: "Not answered", ungrounded: "Answer without verified sources" }[reply.status];
  const notice =
    reply.status === "answered"
      ? null
      : el("p", {
          className: "notice",
          text:
            reply.status === "refused"
              ? `Not answered: ${reply.reason ?? "the code found does not answer this"}.`
              : `No citation could be verified, so treat this as unsupported: ${reply.reason ?? ""}`,
        });
  const sources = reply.citations.length
    ? el(
        "ul",
        { className: "citations" },
        reply.citations.map((c) => {
          const a = el("a", { className: "citation", text: `${c.repo}/${c.path}:${c.startLine}-${c.endLine}` });
          void signedSourceUrl(c.repo, c.path, c.startLine, c.endLine).then((url) => url && (a.href = url));
          return el("li", {}, [a]);
        }),
      )
    : null;
  const parts: (HTMLElement | null)[] = [
    el("h3", { text: label }),
    notice,
    reply.status === "refused" ? null : answerNodes(reply),
    sources ? el("h4", { text: "Verified sources" }) : null,
    sources,
    el("p", { className: "usage", text: usageLine(reply.usage, reply.model) }),
  ];
  target.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  target.dataset.status = reply.status;
}

function failure(r: JsonReply<unknown>): string {
  if (r.status === 404) return "Answers are not available on this server.";
  if (r.status === 503) return "Answers need a model provider, and none is configured on this server (see docs/ask.md).";
  if (r.status === 429) return "The answer budget is used up for now; try again later.";
  return errorText(r);
}

/** Wires the ask form; `repo()` gives the repository chosen in the search form ("" for all). */
export function initAsk(repo: () => string): void {
  const form = document.getElementById("ask-form") as HTMLFormElement | null;
  if (!form) return;
  const question = byId<HTMLTextAreaElement>("question");
  const output = byId("answer");
  const button = form.querySelector("button") as HTMLButtonElement;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const q = question.value.trim();
    if (!q) return;
    if (!currentSession()) {
      output.replaceChildren(el("p", { className: "status error", text: "Sign in to ask (link at the top right)." }));
      return;
    }
    button.disabled = true;
    const draft = el("div", { className: "answer-text draft", "aria-busy": "true" });
    output.replaceChildren(el("p", { className: "status", text: "Searching and writing the answer…" }), draft);
    delete output.dataset.status;
    try {
      const res = await fetch("/api/ask", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json", accept: "text/event-stream", "x-csrf-token": currentSession()?.csrfToken ?? "" },
        body: JSON.stringify({ question: q, ...(repo() ? { repo: repo() } : {}), stream: true }),
      });
      if (!res.ok || !res.body || !res.headers.get("content-type")?.includes("text/event-stream")) {
        let body: unknown = null;
        try {
          body = await res.json();
        } catch {
          body = null;
        }
        output.replaceChildren(el("p", { className: "status error", text: failure({ ok: false, status: res.status, body }) }));
        return;
      }
      await readSse(res.body, (e) => {
        const data = JSON.parse(e.data) as { text?: string; error?: { code: string; message: string } } & AskReply;
        if (e.event === "delta" && data.text) draft.append(data.text);
        else if (e.event === "reset") draft.replaceChildren();
        else if (e.event === "final") renderFinal(output, data);
        else if (e.event === "error") output.replaceChildren(el("p", { className: "status error", text: errorText({ ok: false, status: 500, body: data }) }));
      });
    } finally {
      button.disabled = false;
    }
  });
}
