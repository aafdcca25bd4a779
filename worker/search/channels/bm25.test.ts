import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { documentFrequencies, matchExpression, STEM_LOOKUP } from "./bm25";

// FTS rows written directly (the tokenizer's output form: space-joined lowercase tokens).
const BODIES = ["queue push task", "queue shift task pool", "pool size concurrency", "router match path"];

beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare("INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all')"),
    env.DB.prepare("DELETE FROM chunks"),
    ...BODIES.flatMap((body, i) => [
      env.DB.prepare(
        "INSERT INTO chunks (rowid, id, repo, file_id, path, language, kind, start_line, end_line, content) VALUES (?, ?, 'r', 'f', 'a.ts', 'typescript', 'function', 1, 1, ?)",
      ).bind(i + 1, `f-${i}`, body),
      env.DB.prepare("INSERT INTO chunks_fts (rowid, symbol, path, body) VALUES (?, '', 'a ts', ?)").bind(i + 1, body),
    ]),
  ]);
});

describe("documentFrequencies", () => {
  it("counts exact terms and leaves words that occur nowhere out", async () => {
    const { df, totalDocs } = await documentFrequencies(env.DB, ["queue", "pool", "zebra"]);
    expect(totalDocs).toBe(4);
    expect(df.get("queue")).toBe(2);
    expect(df.get("pool")).toBe(2);
    expect(df.has("zebra")).toBe(false);
  });

  it("gives an absent inflection the frequency of the words its stem prefix reaches", async () => {
    // `queuing` never occurs, but the MATCH expression also searches `queu*`, which finds `queue`.
    expect(matchExpression(["queuing"])).toBe('("queuing" OR "queu"*)');
    const { df } = await documentFrequencies(env.DB, ["queuing", "routing", "slots"]);
    expect(df.get("queuing")).toBe(2);
    expect(df.get("routing")).toBe(1);
    // `slots` stems to `slot`, which occurs nowhere: still absent.
    expect(df.has("slots")).toBe(false);
  });
});

describe("documentFrequencies round trips", () => {
  it("reads the same frequencies whether a stem prefix is read with the exact ones or after them", async () => {
    const terms = ["queuing", "routing", "slots", "pooling", "queue"];
    const eager = await documentFrequencies(env.DB, terms);
    const saved = STEM_LOOKUP.eager;
    try {
      STEM_LOOKUP.eager = 1;
      const mixed = await documentFrequencies(env.DB, terms);
      STEM_LOOKUP.eager = 0;
      const late = await documentFrequencies(env.DB, terms);
      expect([...mixed.df]).toEqual([...eager.df]);
      expect([...late.df]).toEqual([...eager.df]);
    } finally {
      STEM_LOOKUP.eager = saved;
    }
    expect(eager.df.get("pooling")).toBe(2);
    expect(eager.df.get("queue")).toBe(2);
  });
});
