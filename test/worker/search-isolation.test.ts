/**
 * One repo's ranking never depends on another repo or on its own history (issue 22): results
 * (order and scores) of a repo are the same on a database holding only it, after another repo
 * is indexed, after N re-uploads of itself, and after the other repo is deleted. And no
 * statistic tells a token limited to one repo what another repo holds (issue 18, item 6).
 * Through the REST API and the real archive pipeline (queue, coordinator, D1).
 */
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { uploadFilesAndWait } from "./ingest-helpers";

const A: Record<string, string> = {
  "src/cookie.ts": [
    "/** Signs a cookie value with the secret (HMAC-SHA256). */",
    "export async function signCookie(value: string, secret: string): Promise<string> {",
    "  return `${value}.${await hmac(secret, value)}`;",
    "}",
    "",
    "/** Parses signed cookies of a Cookie header, verifying each signature. */",
    "export async function parseSigned(header: string, secret: string): Promise<Record<string, string>> {",
    "  const out: Record<string, string> = {};",
    "  for (const part of header.split(';')) { const [k, v] = part.split('='); if (await verify(secret, v)) out[k.trim()] = v; }",
    "  return out;",
    "}",
    "",
  ].join("\n"),
  "src/cors.ts": [
    "/** CORS middleware: checks the request's origin against the allowed origins. */",
    "export function cors(options: { origin: string[] }) {",
    "  return (req: Request) => options.origin.includes(req.headers.get('origin') ?? '');",
    "}",
    "",
  ].join("\n"),
  "src/hmac.ts": "export async function hmac(secret: string, value: string): Promise<string> {\n  return secret + value;\n}\n",
  "src/router.ts": "export class Router {\n  match(method: string, path: string) {\n    return [method, path];\n  }\n}\n",
  // Two chunks competing for "cookie jar signed": alone, the first wins on term frequency; were
  // statistics the whole database's, repo B (cookie and jar everywhere) would make "signed" the rarer word.
  "src/jar.ts": "export function readJar() {\n  // cookie jar: cookie cookie cookie\n  return 'jar';\n}\n",
  "src/check.ts": "export function checkSignature() {\n  // signed signed signed\n  return true;\n}\n",
  "README.md": "# demo\n\nCookies are signed with signCookie; CORS middleware checks allowed origins.\n",
};
/** One file of A changed, so a re-upload rewrites rows (the FTS5 statistics drifted with rewrites). */
const A_CHANGED = { ...A, "src/router.ts": A["src/router.ts"].replace("match(", "find(") };

/** An unrelated repo sharing the queries' words many times over (it moved A's order under whole-database statistics). */
const B: Record<string, string> = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [
    `lambda/handler${i}.ts`,
    `// aws-lambda cookie jar cookies origins\nexport function handler${i}(event: { cookies: string[]; origin: string }) {\n  return event.cookies.map((cookie) => cookie + ' signed ' + event.origin);\n}\n`,
  ]),
);
B["lambda/only-here.ts"] = "export const zanzibarquux = 'a word only repo B holds';\n";

const QUERIES = ["cookie jar signed", "where are cookies signed", "cors middleware allowed origins", "router match path", "parseSigned verify signature"];

type Hit = { path: string; startLine: number; score: number; ranks: Record<string, number> };

async function searchA(q: string, k = 8, headers?: Record<string, string>, mode = "hybrid") {
  const res = await api("/api/search", { method: "POST", json: { q, repo: "iso-a", k, mode }, headers });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    results: Hit[];
    confidence: { missingTerms: string[]; termCoverage: number; level: string; reason: string };
    stats: { queryTerms: string[] };
  };
}

async function snapshotOfA() {
  const out: unknown[] = [];
  for (const [q, mode] of QUERIES.flatMap((q) => [
    [q, "hybrid"],
    [q, "bm25"],
  ])) {
    const r = await searchA(q, 8, undefined, mode);
    out.push({ q, mode, results: r.results.map((h) => [h.path, h.startLine, h.score, h.ranks]), confidence: r.confidence, terms: r.stats.queryTerms });
  }
  return out;
}

describe("per-repo statistics", () => {
  it("gives a repo the same results (order, scores, confidence) alone, beside another repo, after re-uploads and after the other repo is deleted", async () => {
    await uploadFilesAndWait("iso-a", A);
    const fresh = await snapshotOfA();
    expect((fresh[1] as { results: unknown[][] }).results[0][0]).toBe("src/jar.ts");

    await uploadFilesAndWait("iso-b", B);
    expect(await snapshotOfA()).toEqual(fresh);

    for (let n = 0; n < 3; n++) {
      await uploadFilesAndWait("iso-a", A_CHANGED);
      await uploadFilesAndWait("iso-a", A);
    }
    expect(await snapshotOfA()).toEqual(fresh);

    expect((await api("/api/repos/iso-b", { method: "DELETE" })).status).toBe(200);
    expect(await snapshotOfA()).toEqual(fresh);
  });

  it("strips a re-indexed repo's new issue template from the first report searched after the flip", async () => {
    // The template's checklist line changes between the two uploads; a report written in each
    // version must lose exactly that version's line. Its words occur in the repo (in the
    // template and in code), so left in the report they would be query terms.
    const code = "export function gatherPlatformDetails() {\n  // quasar gadget versions, nebula toolkit listing\n  return [];\n}\n";
    const withTemplate = (line: string) => ({ ...A, "src/platform.ts": code, ".github/ISSUE_TEMPLATE.md": `## Checklist\n\n- [ ] ${line}\n` });
    const report = (line: string) => `Cookies lose their signature\n\nsignCookie drops the secret.\n\n- [x] ${line}\n\nparseSigned rejects them.\n`;
    const search = async (line: string) => {
      const res = await api("/api/search", { method: "POST", json: { q: report(line), repo: "iso-t", k: 8 } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { stats: { queryTerms: string[] } }).stats.queryTerms;
    };
    await uploadFilesAndWait("iso-t", withTemplate("quasar gadget versions"));
    const before = await search("quasar gadget versions");
    expect(before).toContain("cookies");
    expect(before).not.toContain("quasar");

    await uploadFilesAndWait("iso-t", withTemplate("nebula toolkit listing"));
    const after = await search("nebula toolkit listing");
    expect(after).not.toContain("nebula");
    expect(after).not.toContain("toolkit");
    // A fresh search of the same snapshot agrees.
    expect(await search("nebula toolkit listing")).toEqual(after);
  });

  it("orders the top results the same whatever k is", async () => {
    for (const q of QUERIES) {
      const small = (await searchA(q, 3)).results.map((h) => [h.path, h.startLine]);
      const large = (await searchA(q, 20)).results.map((h) => [h.path, h.startLine]);
      expect(large.slice(0, small.length), q).toEqual(small);
    }
  });
});

describe("statistics of what the caller cannot see", () => {
  it("a token limited to repo A learns nothing of the words repo B holds", async () => {
    await uploadFilesAndWait("iso-b", B);
    const res = await api("/api/tokens", { method: "POST", json: { name: "repo A only", scopes: ["search"], repos: ["iso-a"] } });
    expect(res.status).toBe(201);
    const { token } = (await res.json()) as { token: string };
    const asA = { authorization: `Bearer ${token}` };
    // `zanzibarquux` occurs in repo B only; `qwxplorbt` occurs nowhere. To the token, both are absent alike.
    // (bm25 mode: the vector channel embeds the query's text, which differs by that word.)
    const inB = await searchA("zanzibarquux cookie", 8, asA, "bm25");
    const nowhere = await searchA("qwxplorbt cookie", 8, asA, "bm25");
    expect(inB.stats.queryTerms).toEqual(["cookie"]);
    expect(nowhere.stats.queryTerms).toEqual(["cookie"]);
    expect(inB.confidence.missingTerms).toEqual(["zanzibarquux"]);
    // The reason names the query's own missing word; otherwise the two answers are the same.
    const same = (c: typeof inB.confidence, word: string) => ({ ...c, missingTerms: [], reason: c.reason.replace(word, "<word>") });
    expect(same(inB.confidence, "zanzibarquux")).toEqual(same(nowhere.confidence, "qwxplorbt"));
    expect(inB.results).toEqual(nowhere.results);
  });
});
