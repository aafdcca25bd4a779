/**
 * `disable_rules` (issue #46, worker/search/rules.ts): a debugging switch of REST search that
 * turns report rules off for one request, so that an evaluation indexes a set once and measures
 * each rule. Over a small repo uploaded through the real archive route and searched over REST in
 * workerd: with `frame.trace` off a pasted traceback's trace stage no longer runs (explain no
 * longer names it); the switch needs `explain`, an admin caller and a known id.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers";
import { uploadFilesAndWait } from "./ingest-helpers";

const REPO = "rules-switch";

const REPORT = [
  "parse_config crashes on an empty section",
  "",
  "Traceback (most recent call last):",
  '  File "app/main.py", line 4, in run',
  "    return parse_config(text)",
  '  File "app/config.py", line 3, in parse_config',
  "    key, value = line.split('=')",
  "ValueError: not enough values to unpack (expected 2, got 1)",
].join("\n");

type Body = { results: { path: string; explain?: { stages: { stage: string }[] } }[]; error?: { code: string; message: string } };

async function search(json: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; body: Body }> {
  const res = await api("/api/search", { method: "POST", json: { q: REPORT, repo: REPO, k: 5, ...json }, headers });
  return { status: res.status, body: (await res.json()) as Body };
}

const stagesRun = (b: Body) => new Set(b.results.flatMap((r) => r.explain?.stages.map((s) => s.stage) ?? []));

beforeAll(async () => {
  await uploadFilesAndWait(REPO, {
    "app/main.py": "from app.config import parse_config\n\ndef run(text):\n    return parse_config(text)\n",
    "app/config.py":
      "def parse_config(text):\n    for line in text.splitlines():\n        key, value = line.split('=')\n        yield key.strip(), value.strip()\n",
    "app/render.py": "def render_config(items):\n    return '\\n'.join(f'{k}={v}' for k, v in items)\n",
  });
});

describe("disable_rules", () => {
  it("turns the trace stage off for this request only", async () => {
    const on = await search({ explain: true });
    expect(on.status).toBe(200);
    expect(stagesRun(on.body).has("trace")).toBe(true);
    const off = await search({ explain: true, disable_rules: ["frame.trace"] });
    expect(off.status).toBe(200);
    expect(stagesRun(off.body).has("trace")).toBe(false);
    expect(stagesRun((await search({ explain: true })).body).has("trace")).toBe(true);
  });

  it("needs explain, a known rule id and an admin caller", async () => {
    const noExplain = await search({ disable_rules: ["frame.trace"] });
    expect(noExplain.status).toBe(400);
    expect(noExplain.body.error!.message).toMatch(/^disable_rules: pass explain: true/);
    const unknown = await search({ explain: true, disable_rules: ["frame.nope"] });
    expect(unknown.status).toBe(400);
    const res = await api("/api/tokens", { method: "POST", json: { name: "rules search only", scopes: ["search"], repos: [REPO] } });
    const token = ((await res.json()) as { token: string }).token;
    const reader = await search({ explain: true, disable_rules: ["frame.trace"] }, { authorization: `Bearer ${token}` });
    expect(reader.status).toBe(403);
    expect(reader.body.error!.code).toBe("forbidden");
    expect((await search({ explain: true }, { authorization: `Bearer ${token}` })).status).toBe(200);
  });
});
