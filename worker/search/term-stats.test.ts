import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { fileId, type Chunk } from "../../indexer/store/contract";
import { snapshotStatisticsStatements } from "../../indexer/store/d1/snapshots";
import { writeFiles } from "../../indexer/store/d1/write-files";
import { documentFrequencies, STEM_LOOKUP } from "./term-stats";

async function index(repo: string, commit: string, bodies: string[]) {
  const files = await Promise.all(
    bodies.map(async (body, i) => {
      const path = `a${i}.ts`;
      const chunk: Chunk = { kind: "module", startLine: 1, endLine: 1, content: body };
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

const R = [{ id: "r", commit: "c" }];

beforeAll(async () => {
  await index("r", "c", ["queue push task", "queue shift task pool", "pool size concurrency", "router match path"]);
  await index("other", "o", ["zebra queue", "zebra"]);
});

describe("documentFrequencies", () => {
  it("counts exact terms over the searched snapshot only and leaves words that occur nowhere there out", async () => {
    const { df, totalDocs } = await documentFrequencies(env.DB, R, ["queue", "pool", "zebra"]);
    expect(totalDocs).toBe(4);
    expect(df.get("queue")).toBe(2);
    expect(df.get("pool")).toBe(2);
    // `zebra` occurs in another repo only.
    expect(df.has("zebra")).toBe(false);
  });

  it("sums over several searched snapshots", async () => {
    const { df, totalDocs } = await documentFrequencies(env.DB, [...R, { id: "other", commit: "o" }], ["queue", "zebra"]);
    expect(totalDocs).toBe(6);
    expect(df.get("queue")).toBe(3);
    expect(df.get("zebra")).toBe(2);
  });

  it("gives an absent inflection the frequency of the words its stem prefix reaches", async () => {
    const { df } = await documentFrequencies(env.DB, R, ["queuing", "routing", "slots"]);
    expect(df.get("queuing")).toBe(2);
    expect(df.get("routing")).toBe(1);
    expect(df.has("slots")).toBe(false);
  });

  it("reads the same frequencies whether a stem prefix is read with the exact ones or after them", async () => {
    const terms = ["queuing", "routing", "slots", "pooling", "queue"];
    const eager = await documentFrequencies(env.DB, R, terms);
    const saved = STEM_LOOKUP.eager;
    try {
      STEM_LOOKUP.eager = 1;
      const mixed = await documentFrequencies(env.DB, R, terms);
      STEM_LOOKUP.eager = 0;
      const late = await documentFrequencies(env.DB, R, terms);
      expect([...mixed.df]).toEqual([...eager.df]);
      expect([...late.df]).toEqual([...eager.df]);
    } finally {
      STEM_LOOKUP.eager = saved;
    }
    expect(eager.df.get("pooling")).toBe(2);
  });

  it("reads a snapshot activated by format 9 from snapshot_terms, and a re-activated one from its one numbered set", async () => {
    // As format 9 wrote them: snapshot_stats without terms_key, document frequencies in snapshot_terms.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO snapshot_stats (repo, commit_sha, chunks, tokens) VALUES ('old', 'c9', 3, 12)"),
      env.DB.prepare(
        "INSERT INTO snapshot_terms (repo, commit_sha, term, df) VALUES ('old', 'c9', 'queue', 2), ('old', 'c9', 'queues', 3), ('old', 'c9', 'pool', 1)",
      ),
    ]);
    const old = await documentFrequencies(env.DB, [{ id: "old", commit: "c9" }], ["queue", "pool", "queuing", "zebra"]);
    expect(old.totalDocs).toBe(3);
    expect([...old.df].sort()).toEqual([
      ["pool", 1],
      ["queue", 2],
      ["queuing", 3],
    ]);
    const before = await documentFrequencies(env.DB, R, ["queue", "pool", "queuing"]);
    await env.DB.batch(snapshotStatisticsStatements(env.DB, "r", "c"));
    const again = await documentFrequencies(env.DB, R, ["queue", "pool", "queuing"]);
    expect([...again.df]).toEqual([...before.df]);
    const sets = await env.DB.prepare("SELECT count(DISTINCT terms_key) AS n FROM snapshot_df WHERE repo = 'r'").first<{ n: number }>();
    expect(sets?.n).toBe(1);
  });

  it("sums a file's term counts over all of its file_terms rows", async () => {
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO snapshot_files (repo, commit_sha, path, file_id) VALUES ('parts', 'p', 'big.txt', 'f-big'), ('parts', 'p', 'small.txt', 'f-small')",
      ),
      env.DB.prepare(
        `INSERT INTO file_terms (repo, file_id, part, terms) VALUES ('parts', 'f-big', 0, '{"alpha":2,"beta":1}'), ('parts', 'f-big', 1, '{"gamma":3}'), ('parts', 'f-small', 0, '{"alpha":1}')`,
      ),
      ...snapshotStatisticsStatements(env.DB, "parts", "p"),
    ]);
    const { df } = await documentFrequencies(env.DB, [{ id: "parts", commit: "p" }], ["alpha", "beta", "gamma"]);
    expect([...df].sort()).toEqual([
      ["alpha", 3],
      ["beta", 1],
      ["gamma", 3],
    ]);
  });
});
