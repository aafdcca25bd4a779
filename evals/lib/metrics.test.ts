import { describe, expect, it } from "vitest";
import { WholeFileBm25 } from "./bm25.ts";
import {
  allGoldFilesWithin,
  buildRetrievalReport,
  firstHitRank,
  isHit,
  ndcgAt,
  percentile,
  rankedFiles,
  scoreLocalization,
  scoreQuestion,
  summarizeLocalization,
} from "./metrics.ts";
import { multiRepoMarkdown } from "./report.ts";
import type { GoldSpan, SearchHit } from "./types.ts";

const gold: GoldSpan = { file: "src/a.ts", symbol: "f", startLine: 10, endLine: 20 };
const hit = (path: string, startLine: number, endLine: number): SearchHit => ({ path, startLine, endLine });

describe("hit and rank", () => {
  it("counts overlapping ranges in the gold file only, edges included", () => {
    expect(isHit(hit("src/a.ts", 20, 30), gold)).toBe(true);
    expect(isHit(hit("src/a.ts", 1, 10), gold)).toBe(true);
    expect(isHit(hit("src/a.ts", 21, 30), gold)).toBe(false);
    expect(isHit(hit("src/a.ts", 1, 9), gold)).toBe(false);
    expect(isHit(hit("src/b.ts", 10, 20), gold)).toBe(false);
  });

  it("ranks the first hit 1-based, null when absent", () => {
    expect(firstHitRank([hit("x", 1, 2), hit("src/a.ts", 12, 14)], [gold])).toBe(2);
    expect(firstHitRank([hit("x", 1, 2)], [gold])).toBeNull();
  });
});

describe("nDCG@10", () => {
  it("is 1 for the gold at rank 1 and 1/log2(3) at rank 2", () => {
    expect(ndcgAt([hit("src/a.ts", 10, 12)], [gold])).toBeCloseTo(1);
    expect(ndcgAt([hit("x", 1, 1), hit("src/a.ts", 10, 12)], [gold])).toBeCloseTo(1 / Math.log2(3));
  });

  it("credits one gold span once even when two chunks overlap it", () => {
    const twice = [hit("src/a.ts", 10, 12), hit("src/a.ts", 13, 20)];
    expect(ndcgAt(twice, [gold])).toBeCloseTo(1);
    const g2: GoldSpan = { file: "src/b.ts", symbol: "g", startLine: 1, endLine: 5 };
    expect(ndcgAt([hit("src/b.ts", 1, 2), hit("x", 1, 1), hit("src/a.ts", 10, 10)], [gold, g2])).toBeCloseTo((1 + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)));
  });
});

describe("report", () => {
  it("splits by category, ignores unanswerable in recall, counts gate refusals", () => {
    const outcomes = [
      scoreQuestion({ id: "a", category: "lexical", gold: [gold] }, [hit("src/a.ts", 10, 11)], false, 5),
      scoreQuestion(
        { id: "b", category: "semantic", gold: [gold] },
        [hit("x", 1, 1), hit("y", 1, 1), hit("src/a.ts", 1, 3), hit("src/a.ts", 15, 16)],
        false,
        7,
      ),
      scoreQuestion({ id: "c", category: "semantic", gold: [gold] }, [], true, 9),
      scoreQuestion({ id: "d", category: "unanswerable", gold: [] }, [hit("x", 1, 1)], true, 11),
    ];
    const r = buildRetrievalReport(outcomes);
    expect(r.overall.n).toBe(3);
    expect(r.overall.recall1).toBeCloseTo(1 / 3);
    expect(r.overall.recall5).toBeCloseTo(2 / 3);
    expect(r.overall.mrr10).toBeCloseTo((1 + 1 / 4) / 3);
    expect(r.overall.fileRecall5).toBeCloseTo(2 / 3);
    expect(r.byCategory.semantic?.n).toBe(2);
    expect(r.byCategory.semantic?.recall5).toBeCloseTo(0.5);
    expect(r.byCategory.unanswerable).toBeUndefined();
    expect(r.gate).toEqual({ unanswerable: 1, refusedUnanswerable: 1, answerable: 3, refusedAnswerable: 1 });
    expect(r.latencyMs).toEqual({ p50: 7, p95: 11 });
  });
});

describe("multi-repository report (polyglot)", () => {
  it("has a row per repository, the pooled total, and R@5 counts by category including report", () => {
    const a = [
      scoreQuestion({ id: "g1", category: "lexical", gold: [gold] }, [hit("src/a.ts", 10, 11)], false, 5),
      scoreQuestion({ id: "g11", category: "report", gold: [gold] }, [hit("x", 1, 1)], false, 6),
    ];
    const b = [scoreQuestion({ id: "j11", category: "report", gold: [gold] }, [hit("x", 1, 1), hit("src/a.ts", 12, 12)], false, 7)];
    const total = buildRetrievalReport([...a, ...b]);
    expect(total.byCategory.report).toMatchObject({ n: 2, recall1: 0, recall5: 0.5 });
    const md = multiRepoMarkdown(
      [
        { label: "gin-gonic/gin (Go)", files: 126, report: buildRetrievalReport(a) },
        { label: "google/gson (Java)", report: buildRetrievalReport(b) },
      ],
      total,
    );
    const lines = md.split("\n");
    expect(lines[0]).toBe("| Repository | Files | n | R@1 | R@5 | R@10 | MRR@10 | nDCG@10 | File R@5 | R@5 lexical | R@5 report | p50 ms | p95 ms |");
    expect(lines[2]).toMatch(/^\| gin-gonic\/gin \(Go\) \| 126 \| 2 \| 50\.0% \| 50\.0% .*\| 1\/1 \| 0\/1 \|/);
    expect(lines[3]).toMatch(/^\| google\/gson \(Java\) \| {2}\| 1 \| 0\.0% \| 100\.0% .*\| n\/a \| 1\/1 \|/);
    expect(lines[4]).toMatch(/^\| \*\*All\*\* \| {2}\| 3 \| 33\.3% \| 66\.7% .*\| 1\/1 \| 1\/2 \|/);
    expect(lines[6]).toMatch(/^\| All: report \| {2}\| 2 \| 0\.0% \| 50\.0% /);
    expect(md).toContain("wrongly refused 0/3 answerable questions");
  });
});

describe("file localization", () => {
  it("ranks files by their best chunk and needs every gold file within k", () => {
    const files = rankedFiles([hit("a", 1, 1), hit("b", 1, 1), hit("a", 5, 6), hit("c", 1, 1)]);
    expect(files).toEqual(["a", "b", "c"]);
    expect(allGoldFilesWithin(files, ["a", "c"], 2)).toBe(false);
    expect(allGoldFilesWithin(files, ["a", "c"], 3)).toBe(true);
    const outcomes = [
      scoreLocalization("1", "r", files, ["b"], 3),
      scoreLocalization("2", "r", files, ["a", "c"], 4),
      scoreLocalization("3", "r", files, ["zzz"], 5),
    ];
    expect(outcomes.map((o) => o.allFoundAt)).toEqual([2, 3, null]);
    const s = summarizeLocalization(outcomes);
    expect([s.acc1, s.acc3, s.acc5]).toEqual([0, 2 / 3, 2 / 3]);
  });

  it("percentile uses the nearest rank", () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(Number.isNaN(percentile([], 50))).toBe(true);
  });
});

describe("whole-file BM25 baseline", () => {
  it("ranks the file that holds rare query terms first, with the product's tokenizer", () => {
    const bm25 = new WholeFileBm25();
    bm25.add("src/session.py", "class Session:\n    def merge_environment_settings(self, url, proxies):\n        return proxies\n");
    bm25.add("src/models.py", "class Request:\n    def register_hook(self, event, hook):\n        self.hooks[event].append(hook)\n");
    bm25.add("README.md", "Requests is an HTTP library. Session objects keep settings.");
    const top = bm25.search("register_hook should accept a list of hooks for the event", 3);
    expect(top[0].path).toBe("src/models.py");
    // camelCase / snake_case parts match: "environment settings" finds merge_environment_settings.
    expect(bm25.search("environment proxies are ignored", 1)[0].path).toBe("src/session.py");
  });

  it("matches the BM25 formula for a one-term query", () => {
    const bm25 = new WholeFileBm25();
    bm25.add("a", "alpha beta");
    bm25.add("b", "gamma");
    // N = 2, n = 1, tf = 1, |d| = 3 tokens (path "a" + 2 words), avgdl = (3 + 2) / 2.
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const norm = 1.2 * (1 - 0.75 + (0.75 * 3) / 2.5);
    expect(bm25.search("alpha", 1)[0].score).toBeCloseTo((idf * 2.2) / (1 + norm));
  });
});
