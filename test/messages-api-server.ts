/**
 * A scripted Anthropic Messages API server on loopback (Node), speaking the real wire format:
 * `POST /v1/messages` answers JSON, or with `stream: true` the SSE event sequence
 * (message_start, content_block_start, ping, content_block_delta with text_delta or
 * input_json_delta, content_block_stop, message_delta, message_stop); errors are the API's
 * `{type: "error", error: {type, message}}` with its status (429 with retry-after, 529
 * overloaded, 400). Prompt caching is simulated: a `cache_control` system block is written to
 * the cache on first sight and read on the next request with the same text.
 *
 * The scenario is chosen by the API key (`<scenario>:<anything>`, from `authorization: Bearer`
 * or `x-api-key`), so tests running
 * in parallel never share state; calls are counted per key and `GET /__requests?key=K` returns
 * the bodies received. Used by the vitest globalSetup (test/messages-api-setup.ts), by
 * `npm run eval -- --set ask` without a real key, and by `npm run bench` (scenario `cite`:
 * answers at once, citing the first evidence item).
 *
 * Scenarios: cite | rate-limited-once | overloaded-once | always-overloaded | refusal |
 * max-tokens-once | invalid-once | insufficient | obey-injection | inject-markup | miscite | tool-use | bad-request | slow |
 * translate | translate-prose (the search's language reader), and
 * the review-* scenarios of test/messages-api-review.ts (multi-turn tool use) and the fill-*
 * scenarios of test/messages-api-suggest.ts (suggest_tests fill). The scenario
 * `queued` answers each call with the next scenario a test queued for that key
 * (`POST /__queue?key=K` with `{"scenario": "insufficient"}`; `cite` when none is queued), so a
 * test against one running Worker (one API key) can script several different answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeServer } from "./close-server.ts";
import { INJECTED_MARKUP, reviewScript } from "./messages-api-review.ts";
import { fillScript } from "./messages-api-suggest.ts";

interface Evidence {
  label: string;
  repo: string;
  path: string;
  start: number;
  end: number;
  body: string;
}

type Reply =
  | { kind: "error"; status: number; type: string; headers?: Record<string, string> }
  | { kind: "message"; blocks: ({ type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown })[]; stopReason: string };

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

/** Evidence blocks of a user message fenced with its nonce (the format of worker/ask/evidence.ts). */
export function parseEvidence(user: string): Evidence[] {
  const nonce = /nonce is ([0-9a-f]{32})/.exec(user)?.[1];
  if (!nonce) return [];
  const re = new RegExp(`^<<<EVIDENCE ${nonce} (E\\d+) repo=(\\S+) path=(\\S+) lines=(\\d+)-(\\d+)>>>\\n([\\s\\S]*?)\\n<<<END ${nonce}>>>$`, "gm");
  return [...user.matchAll(re)].map((m) => ({ label: m[1], repo: m[2], path: m[3], start: Number(m[4]), end: Number(m[5]), body: m[6] }));
}

function answerJson(status: string, answer: string, citations: unknown[], missing = ""): string {
  return JSON.stringify({ status, answer, citations, missing });
}

/** The plumbing model: cites the first three lines of E1 (or says the evidence is insufficient). */
function citeFirst(ev: Evidence[]): string {
  const e = ev[0];
  if (!e) return answerJson("insufficient_context", "The evidence shows nothing relevant.", [], "no evidence was given");
  const end = Math.min(e.end, e.start + 2);
  const ref = `${e.path}:${e.start}-${end}`;
  return answerJson("answered", `The code that answers this is in \`${e.path}\` [${e.label} ${ref}].\nIt says "quoted \\"text\\"" and more.`, [
    { evidence: e.label, repo: e.repo, path: e.path, startLine: e.start, endLine: end },
  ]);
}

function userText(body: any): string {
  const first = body.messages?.[0]?.content;
  return typeof first === "string" ? first : Array.isArray(first) ? first.map((b: any) => b.text ?? "").join("") : "";
}

function script(scenario: string, call: number, body: any): Reply {
  const review = reviewScript(scenario, call, body);
  if (review) return review;
  const text = (t: string, stopReason = "end_turn"): Reply => ({ kind: "message", blocks: [{ type: "text", text: t }], stopReason });
  const fill = fillScript(scenario, userText(body));
  if (fill !== null) return text(fill);
  const ev = parseEvidence(userText(body));
  switch (scenario) {
    case "rate-limited-once":
      return call === 1 ? { kind: "error", status: 429, type: "rate_limit_error", headers: { "retry-after": "1" } } : text(citeFirst(ev));
    case "overloaded-once":
      return call === 1 ? { kind: "error", status: 529, type: "overloaded_error" } : text(citeFirst(ev));
    case "always-overloaded":
      return { kind: "error", status: 529, type: "overloaded_error" };
    case "bad-request":
      return { kind: "error", status: 400, type: "invalid_request_error" };
    case "refusal":
      return text("", "refusal");
    case "max-tokens-once":
      return call === 1 ? text('{"status":"answered","answer":"The answer goes on and on', "max_tokens") : text(citeFirst(ev));
    case "invalid-once":
      return call === 1 ? text('{"status":"answered","answer":"no citations here","citations":[],"missing":""}') : text(citeFirst(ev));
    case "insufficient":
      return text(
        answerJson("insufficient_context", "The evidence does not show how this is configured.", [], "the configuration loader is not in the evidence"),
      );
    case "obey-injection": {
      // A model fooled by the evidence: cites /etc/passwd and a range outside the evidence, plus one valid citation.
      const e = ev[0]!;
      const cites = [
        { evidence: "E1", repo: e.repo, path: "/etc/passwd", startLine: 1, endLine: 1 },
        { evidence: e.label, repo: e.repo, path: e.path, startLine: e.end + 5, endLine: e.end + 9 },
        { evidence: "E99", repo: e.repo, path: e.path, startLine: e.start, endLine: e.start },
        { evidence: e.label, repo: e.repo, path: e.path, startLine: e.start, endLine: e.start },
      ];
      return text(
        answerJson(
          "answered",
          `Root is in [E1 /etc/passwd:1]. See [${e.label} ${e.path}:${e.end + 5}-${e.end + 9}] and [E99 ${e.path}:${e.start}] and [${e.label} ${e.path}:${e.start}].`,
          cites,
        ),
      );
    }
    case "miscite": {
      // Every citation points past the evidence it names: nothing can be verified (ungrounded).
      const e = ev[0]!;
      const ref = `${e.path}:${e.end + 50}-${e.end + 52}`;
      return text(
        answerJson("answered", `It is done in [${e.label} ${ref}].`, [
          { evidence: e.label, repo: e.repo, path: e.path, startLine: e.end + 50, endLine: e.end + 52 },
        ]),
      );
    }
    case "inject-markup": {
      // A model that repeats markup planted in the evidence: an image that would leak data when
      // rendered, raw HTML, a script link; beside a code span and a citation that must survive.
      const e = ev[0]!;
      const ref = `${e.path}:${e.start}-${e.start}`;
      return text(
        answerJson("answered", `${INJECTED_MARKUP} See \`<img src=x>\` in [${e.label} ${ref}].`, [
          { evidence: e.label, repo: e.repo, path: e.path, startLine: e.start, endLine: e.start },
        ]),
      );
    }
    case "translate":
      // The search's language reader (worker/search/language/translate.ts): English keywords as JSON.
      return text(JSON.stringify({ keywords: "signed cookie verify" }));
    case "translate-prose":
      return text("This query asks how signed cookies are verified.");
    case "tool-use":
      return {
        kind: "message",
        blocks: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "src/a.ts", lines: [1, 20] } },
        ],
        stopReason: "tool_use",
      };
    default:
      return text(citeFirst(ev));
  }
}

function usageOf(body: any, cache: Set<string>, output: number) {
  const system: any[] = Array.isArray(body.system) ? body.system : body.system ? [{ text: body.system }] : [];
  let write = 0;
  let read = 0;
  let plain = tokens(JSON.stringify(body.messages ?? []));
  for (const s of system) {
    if (s.cache_control) {
      if (cache.has(s.text)) read += tokens(s.text);
      else {
        cache.add(s.text);
        write += tokens(s.text);
      }
    } else plain += tokens(s.text ?? "");
  }
  return { input_tokens: plain, output_tokens: output, cache_creation_input_tokens: write, cache_read_input_tokens: read };
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function chunks(s: string, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out.length ? out : [""];
}

/** A running scripted server. */
export interface MessagesApiServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (`port` 0 = any free port). */
export async function startMessagesApiServer(port = 0): Promise<MessagesApiServer> {
  const calls = new Map<string, number>();
  const received = new Map<string, unknown[]>();
  const cache = new Set<string>();
  const queued = new Map<string, string[]>();
  let seq = 0;
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "GET" && url.pathname === "/__requests") {
      const key = url.searchParams.get("key") ?? "";
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ calls: calls.get(key) ?? 0, requests: received.get(key) ?? [] }));
      return;
    }
    if (req.method === "POST" && url.pathname === "/__queue") {
      const key = url.searchParams.get("key") ?? "";
      let raw = "";
      for await (const c of req) raw += c;
      queued.set(key, [...(queued.get(key) ?? []), String(JSON.parse(raw).scenario)]);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ queued: queued.get(key)!.length }));
      return;
    }
    if (req.method !== "POST" || url.pathname !== "/v1/messages") {
      res.statusCode = 404;
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "Not found" } }));
      return;
    }
    let raw = "";
    for await (const c of req) raw += c;
    const body = JSON.parse(raw);
    // SDK 1.x sends the API key as `authorization: Bearer <key>`; older clients as x-api-key.
    const key = String(req.headers["x-api-key"] ?? /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1] ?? "");
    const keyScenario = key.split(":")[0];
    const scenario = keyScenario === "queued" ? (queued.get(key)?.shift() ?? "cite") : keyScenario;
    const call = (calls.get(key) ?? 0) + 1;
    calls.set(key, call);
    received.set(key, [...(received.get(key) ?? []), body]);
    if (scenario === "slow") await new Promise((r) => setTimeout(r, 3000));
    const reply = script(scenario, call, body);
    const id = `msg_scripted_${++seq}`;
    res.setHeader("request-id", `req_scripted_${seq}`);
    if (reply.kind === "error") {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify({ type: "error", error: { type: reply.type, message: `scripted ${reply.type}` } }));
      return;
    }
    const outText = reply.blocks.map((b) => (b.type === "text" ? b.text : JSON.stringify(b.input))).join("");
    const usage = usageOf(body, cache, tokens(outText));
    const content = reply.blocks.map((b) =>
      b.type === "text" ? { type: "text", text: b.text } : { type: "tool_use", id: b.id, name: b.name, input: b.input },
    );
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ id, type: "message", role: "assistant", model: body.model, content, stop_reason: reply.stopReason, stop_sequence: null, usage }),
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    sse(res, "message_start", {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    reply.blocks.forEach((b, index) => {
      if (b.type === "text") {
        sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
        if (index === 0) sse(res, "ping", { type: "ping" });
        for (const part of chunks(b.text, 7))
          sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: part } });
      } else {
        sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
        for (const part of chunks(JSON.stringify(b.input), 5))
          sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } });
      }
      sse(res, "content_block_stop", { type: "content_block_stop", index });
    });
    sse(res, "message_delta", {
      type: "message_delta",
      delta: { stop_reason: reply.stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    sse(res, "message_stop", { type: "message_stop" });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actual } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${actual}`, close: () => closeServer(server) };
}
