import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { coalescingD1 } from "./d1-coalesce";

/** A D1Database whose batch() calls are counted (the view sends everything through batch). */
function counting(db: D1Database): { db: D1Database; batches: () => number } {
  let n = 0;
  const wrapped = Object.create(db) as D1Database;
  wrapped.batch = (statements) => {
    n++;
    return db.batch(statements);
  };
  wrapped.prepare = (q) => db.prepare(q);
  return { db: wrapped, batches: () => n };
}

describe("coalescingD1", () => {
  it("answers concurrent reads in one round trip, each with its own rows", async () => {
    const c = counting(env.DB);
    const view = coalescingD1(c.db);
    const [a, b, first, col, batch] = await Promise.all([
      view.prepare("SELECT 1 AS x").all<{ x: number }>(),
      view.prepare("SELECT ? AS y").bind("two").all<{ y: string }>(),
      view.prepare("SELECT 3 AS z UNION ALL SELECT 4").first<{ z: number }>(),
      view.prepare("SELECT 5 AS w").first<number>("w"),
      view.batch<{ v: number }>([view.prepare("SELECT 6 AS v"), view.prepare("SELECT 7 AS v")]),
    ]);
    expect(a.results).toEqual([{ x: 1 }]);
    expect(b.results).toEqual([{ y: "two" }]);
    expect(first).toEqual({ z: 3 });
    expect(col).toBe(5);
    expect(batch.map((r) => r.results)).toEqual([[{ v: 6 }], [{ v: 7 }]]);
    expect(c.batches()).toBe(1);
  });

  it("fails only the caller whose statement fails", async () => {
    const view = coalescingD1(env.DB);
    const [good, bad] = await Promise.allSettled([view.prepare("SELECT 1 AS x").all(), view.prepare("SELECT * FROM no_such_table").all()]);
    expect(good.status === "fulfilled" && good.value.results).toEqual([{ x: 1 }]);
    expect(bad.status).toBe("rejected");
  });
});
