/**
 * The ask tab of the search page: `POST /api/ask` with `stream: true`, showing the draft as
 * it streams, then the verified answer with its Markdown rendered (answer-markdown.ts).
 * Citations `[E1 path:start-end]` that the server verified become links into the source view; refused and ungrounded answers are shown as
 * such; the usage line gives tokens and the estimated cost. A server without the answer
 * feature (404) or without a model provider (503) says so in words.
 */
import { currentSession, errorText, signedSourceUrl, type ApiErrorBody, type JsonReply } from "./api";
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

/**
 * The answer as formatted text (Markdown rendered and sanitized by answer-markdown.ts, loaded
 * on first use), verified citations as links into the source view.
 */
async function answerNodes(reply: AskReply): Promise<HTMLElement> {
  const { renderAnswerMarkdown } = await import("./answer-markdown");
  const out = el("div", { className: "answer-text" });
  out.append(
    renderAnswerMarkdown(reply.answer, (m) => {
      const cite = reply.citations.find((c) => c.evidence === m.evidence && c.path === m.path && c.startLine === m.startLine && c.endLine === m.endLine);
      if (!cite) return null;
      const a = el("a", { className: "citation", text: `${cite.path}:${cite.startLine}-${cite.endLine}` });
      void signedSourceUrl(cite.repo, cite.path, cite.startLine, cite.endLine).then((url) => url && (a.href = url));
      return a;
    }),
  );
  return out;
}

/** "1,234 input + 456 output tokens · about $0.0123 · claude-…" */
export function usageLine(u: AskReply["usage"], model: string): string {
  const n = (x: number) => x.toLocaleString("en");
  const cache = u.cacheReadTokens || u.cacheWriteTokens ? ` (${n(u.cacheReadTokens)} read from cache, ${n(u.cacheWriteTokens)} written)` : "";
  const cost = u.costUsd === null ? "cost unknown for this model" : `about $${u.costUsd.toFixed(4)}`;
  return `${n(u.inputTokens)} input + ${n(u.outputTokens)} output tokens${cache} · ${cost} · ${model}`;
}

async function renderFinal(target: HTMLElement, reply: AskReply): Promise<void> {
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
    reply.status === "refused" ? null : await answerNodes(reply),
    sources ? el("h4", { text: "Verified sources" }) : null,
    sources,
    el("p", { className: "usage", text: usageLine(reply.usage, reply.model) }),
  ];
  target.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  target.dataset.status = reply.status;
}

/** Words for a failed answer: the model API's own reason when it gave one (errorText), else by status. */
export function failure(r: JsonReply<unknown>): string {
  const code = (r.body as ApiErrorBody | null)?.error?.code;
  if (code === "generation_failed" || code === "budget_exhausted") return errorText(r);
  if (r.status === 404) return "Answers are not available on this server.";
  if (r.status === 503) return "Answers need a model provider, and none is configured on this server (see docs/ask.md).";
  if (r.status === 429) return "The answer budget is used up for now; try again later.";
  return errorText(r);
}

/** Wires the ask form; `repo()` gives the repository chosen in the ask tab ("" for all). */
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
      let final: Promise<void> = Promise.resolve();
      await readSse(res.body, (e) => {
        const data = JSON.parse(e.data) as { text?: string; error?: { code: string; message: string } } & AskReply;
        if (e.event === "delta" && data.text) draft.append(data.text);
        else if (e.event === "reset") draft.replaceChildren();
        else if (e.event === "final") final = renderFinal(output, data);
        // A failure after the stream started (the model API overloaded, say): its own reason.
        else if (e.event === "error") output.replaceChildren(el("p", { className: "status error", text: failure({ ok: false, status: 502, body: data }) }));
      });
      await final;
    } finally {
      button.disabled = false;
    }
  });
}
