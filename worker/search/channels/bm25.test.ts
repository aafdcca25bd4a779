import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { fileId, type Chunk } from "../../../indexer/store/contract";
import { snapshotStatisticsStatements } from "../../../indexer/store/d1/snapshots";
import { writeFiles } from "../../../indexer/store/d1/write-files";
import { parseQuery } from "../query";
import type { ChannelScope } from "./scope";
import { bm25Channel, bm25Statement, bm25WithPaths, matchExpression, phraseRanges, type Bm25Row } from "./bm25";

const BODIES = [
  "queue push task",
  "queue shift task pool",
  "pool size concurrency",
  "router match path routing",
  "export function routeTable() { return routes }",
];

async function index(repo: string, commit: string, bodies: string[]) {
  const files = await Promise.all(
    bodies.map(async (body, i) => {
      const path = `src/f${i}.ts`;
      const chunk: Chunk = { kind: "function", startLine: 1, endLine: 1, content: body, symbol: `fn${i}` };
      return {
        repo,
        path,
        blobSha: "0".repeat(39) + i,
        text: body,
        fileId: await fileId(repo, path, body),
        chunked: { language: "typescript", chunks: [chunk], symbols: [], imports: [] },
      };
    }),
  );
  await writeFiles(env.DB, files);
  await env.DB.batch([
    ...files.map((f) =>
      env.DB.prepare("INSERT OR REPLACE INTO snapshot_files (repo, commit_sha, path, file_id) VALUES (?, ?, ?, ?)").bind(repo, commit, f.path, f.fileId),
    ),
    ...snapshotStatisticsStatements(env.DB, repo, commit),
  ]);
}

const scope = (repo: string, commit: string, terms: string[]): ChannelScope => ({
  db: env.DB,
  repo,
  commit,
  filters: { includeTests: true },
  depth: 30,
  query: parseQuery(terms.join(" ")),
  terms,
});

beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all')"),
    env.DB.prepare("DELETE FROM chunks"),
    env.DB.prepare("DELETE FROM chunk_terms"),
  ]);
  await index("r1", "c1", BODIES);
});

describe("phraseRanges", () => {
  it("gives a term alone a range holding only itself, and its stem prefix a range of every word starting with it", () => {
    expect(matchExpression(["routing"])).toBe('("routing" OR "rout"*)');
    expect(phraseRanges(["routing", "pool"])).toEqual([
      ["routing", "routing "],
      ["rout", "rout\uffff"],
      ["pool", "pool "],
    ]);
  });
});

describe("bm25Channel", () => {
  it("scores as FTS5's bm25() does on a table holding only the searched snapshot", async () => {
    for (const terms of [["queue"], ["queue", "pool"], ["routing", "task"], ["routes", "concurrency", "push"]]) {
      const ours = await bm25Statement(scope("r1", "c1", terms), terms).all<{ id: string; score: number }>();
      const fts = await env.DB.prepare(
        "SELECT c.id AS id, -bm25(chunks_fts, 4, 2, 1) AS score FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts, 4, 2, 1), c.id",
      )
        .bind(matchExpression(terms))
        .all<{ id: string; score: number }>();
      expect(
        ours.results.map((r) => r.id),
        terms.join(" "),
      ).toEqual(fts.results.map((r) => r.id));
      ours.results.forEach((r, i) => expect(r.score).toBeCloseTo(fts.results[i].score, 9));
    }
  });

  it("does not move when another repo is indexed, or when the repo's own rows are rewritten", async () => {
    const before = await bm25Channel(scope("r1", "c1", ["queue", "pool", "routing"]));
    expect(before.hits.length).toBeGreaterThan(2);
    await index("r2", "c9", ["queue queue queue", "queue pool", "pool pool pool pool", "other words here"]);
    for (let n = 0; n < 3; n++) await index("r1", "c1", BODIES);
    const after = await bm25Channel(scope("r1", "c1", ["queue", "pool", "routing"]));
    expect(after).toEqual(before);
  });
});

describe("bm25WithPaths", () => {
  /** A repo whose files hold several chunks each (`bodies[i]`: the chunks of src/m<i>.ts). */
  async function indexChunked(repo: string, commit: string, bodies: string[][]) {
    const files = await Promise.all(
      bodies.map(async (chunks, i) => {
        const path = `src/m${i}.ts`;
        const text = chunks.join("\n");
        return {
          repo,
          path,
          blobSha: "1".repeat(39) + i,
          text,
          fileId: await fileId(repo, path, text),
          chunked: {
            language: "typescript",
            chunks: chunks.map((content, n): Chunk => ({ kind: "function", startLine: n + 1, endLine: n + 1, content, symbol: `m${i}f${n}` })),
            symbols: [],
            imports: [],
          },
        };
      }),
    );
    await writeFiles(env.DB, files);
    await env.DB.batch([
      ...files.map((f) =>
        env.DB.prepare("INSERT OR REPLACE INTO snapshot_files (repo, commit_sha, path, file_id) VALUES (?, ?, ?, ?)").bind(repo, commit, f.path, f.fileId),
      ),
      ...snapshotStatisticsStatements(env.DB, repo, commit),
    ]);
  }

  beforeAll(async () => {
    await indexChunked("r3", "c3", [
      ["queue push task", "queue queue pool", "pool size", "task queue drain"],
      ["router match queue", "pool of routes", "queue"],
      ["unrelated words only"],
    ]);
  });

  /** The best `perFile` rows of each path, in the rows' order, without their paths. */
  const bestPerFile = (rows: Bm25Row[], perFile: number) => {
    const kept = new Map<string, number>();
    return rows.flatMap(({ id, path, score }) => {
      const n = kept.get(path) ?? 0;
      kept.set(path, n + 1);
      return n < perFile ? [{ id, score }] : [];
    });
  };

  it("returns the channel's list and each named file's best scored chunks as the two statements do, from one", async () => {
    const cases: [string[], number, string[], number][] = [
      [["queue", "pool"], 30, ["src/m0.ts", "src/m1.ts"], 2],
      [["queue", "pool", "task"], 2, ["src/m0.ts"], 2],
      [["queue", "routing"], 30, ["src/m1.ts", "src/m2.ts", "src/none.ts"], 1],
      [["queue", "pool"], 30, ["src/m0.ts", "src/m1.ts"], 10],
    ];
    for (const [terms, limit, paths, perFile] of cases) {
      const s = scope("r3", "c3", terms);
      const top = await bm25Statement(s, terms, limit).all<Bm25Row>();
      const inPaths = await bm25Statement(s, terms, undefined, { sql: ` AND c.path IN (${paths.map(() => "?").join(", ")})`, params: paths }).all<Bm25Row>();
      const joint = await bm25WithPaths(s, terms, limit, paths, perFile);
      const label = `${terms.join(" ")} / ${perFile}`;
      expect(joint.top, label).toEqual(top.results.map(({ id, score }) => ({ id, score })));
      expect(joint.inPaths, label).toEqual(bestPerFile(inPaths.results, perFile));
      expect(joint.inPaths.length, label).toBeGreaterThan(0);
    }
    // Files with several matching chunks keep them all up to perFile, best first.
    const m0 = (n: number) => bm25WithPaths(scope("r3", "c3", ["queue", "pool"]), ["queue", "pool"], 30, ["src/m0.ts"], n);
    expect((await m0(10)).inPaths.length).toBe(4);
    expect((await m0(2)).inPaths.map((r) => r.id)).toEqual((await m0(10)).inPaths.slice(0, 2).map((r) => r.id));
  });

  it("narrows by the scope's filters in both lists", async () => {
    const s = { ...scope("r3", "c3", ["queue", "pool"]), filters: { includeTests: true, pathPrefix: "src/m1" } };
    const joint = await bm25WithPaths(s, ["queue", "pool"], 30, ["src/m0.ts", "src/m1.ts"], 10);
    const alone = await bm25Statement(s, ["queue", "pool"], 30).all<Bm25Row>();
    expect(new Set(alone.results.map((r) => r.path))).toEqual(new Set(["src/m1.ts"]));
    expect(joint.top.map((r) => r.id)).toEqual(alone.results.map((r) => r.id));
    const m1 = await bm25Statement(s, ["queue", "pool"], undefined, { sql: " AND c.path = ?", params: ["src/m1.ts"] }).all<Bm25Row>();
    expect(joint.inPaths.map((r) => r.id)).toEqual(m1.results.map((r) => r.id));
  });
});
