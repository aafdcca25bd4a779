/** Broken and hostile archives (test/fixtures/hostile-archives.ts) are refused whole, never read in part. */
import { gzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { CodeSearchError } from "../../kernel/errors";
import { concatBytes, GOOD_TREE, hostileArchives, tarOf } from "../../test/fixtures/hostile-archives";
import { readArchive } from "./archive";

const archives = await hostileArchives();

describe("readArchive refuses damaged archives", () => {
  it("reads the good tree the damaged ones are made from (tar, tar.gz, tar.gz of two members)", async () => {
    const tar = await tarOf(GOOD_TREE);
    // Two gzip members (`cat a.gz b.gz`) are one valid gzip stream.
    const twoMembers = concatBytes(gzipSync(tar.subarray(0, 700)), gzipSync(tar.subarray(700)));
    for (const bytes of [tar, gzipSync(tar), twoMembers]) {
      expect((await readArchive(bytes)).map((e) => e.path)).toEqual(Object.keys(GOOD_TREE));
    }
  });

  it.each(archives.map((a) => [a.name, a] as const))("%s -> archive_invalid", async (_name, a) => {
    const err = await readArchive(a.bytes).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CodeSearchError);
    expect((err as CodeSearchError).code).toBe("archive_invalid");
    expect((err as CodeSearchError).message).toMatch(a.message);
  });
});
