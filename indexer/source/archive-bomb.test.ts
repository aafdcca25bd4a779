/**
 * Decompression bombs are refused while inflating (gzip: the running total of inflated bytes
 * against the compressed bytes fed so far) or before it (zip: the sizes the entries declare).
 * Memory and time of a 0.7 MB bomb are measured outside the tests (docs/ingestion.md).
 */
import { gzipSync, zipSync } from "fflate";
import { packTar } from "modern-tar";
import { describe, expect, it } from "vitest";
import { CodeSearchError } from "../../kernel/errors";
import { DEFAULT_ARCHIVE_LIMITS, readArchive } from "./archive";

const MIB = 1024 * 1024;
const zeros = new Uint8Array(MIB);
const names = (n: number) => Array.from({ length: n }, (_, i) => `src/f${i}.txt`);

async function refusal(p: Promise<unknown>): Promise<CodeSearchError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CodeSearchError);
  return err as CodeSearchError;
}

describe("archive bombs", () => {
  it("a tar.gz bomb stops once past the floor: it never inflates much beyond ratioFloorBytes", async () => {
    // 64 MiB of zeros in ~70 KB: ~1000:1.
    const bomb = gzipSync(await packTar(names(64).map((name) => ({ header: { name, size: MIB }, body: zeros }))), { level: 9 });
    const err = await refusal(readArchive(bomb));
    expect(err.code).toBe("archive_invalid");
    expect(err.message).toMatch(/decompression bomb/);
    expect(err.details).toMatchObject({ basis: "inflated" });
    const inflated = err.details!.expandedBytes as number;
    expect(inflated).toBeGreaterThan(DEFAULT_ARCHIVE_LIMITS.ratioFloorBytes);
    expect(inflated).toBeLessThan(DEFAULT_ARCHIVE_LIMITS.ratioFloorBytes + 2 * MIB);
    expect(err.details!.compressedBytes as number).toBeLessThan(bomb.length);
  });

  it("a zip bomb is refused from the sizes its entries declare, before any entry is inflated", async () => {
    const zip = zipSync(Object.fromEntries(names(40).map((n) => [n, zeros])), { level: 9 });
    // Damage the first entry's deflate data (block type 11 is invalid): inflating it would fail
    // as corrupt, so a bomb refusal proves nothing was inflated first.
    const damaged = zip.slice();
    const view = new DataView(damaged.buffer);
    damaged[30 + view.getUint16(26, true) + view.getUint16(28, true)] = 0x07;
    const err = await refusal(readArchive(damaged));
    expect(err.code).toBe("archive_invalid");
    expect(err.message).toMatch(/decompression bomb/);
    expect(err.details).toMatchObject({ basis: "declared", expandedBytes: 40 * MIB });
  });

  it("a zip whose declared total passes maxTotalBytes is payload_too_large before inflating", async () => {
    const zip = zipSync(Object.fromEntries(names(5).map((n) => [n, zeros])), { level: 9 });
    const err = await refusal(readArchive(zip, { maxTotalBytes: 4 * MIB }));
    expect(err.code).toBe("payload_too_large");
  });

  it("repetitive archives below the floor are read whole (tar.gz and zip)", async () => {
    const tgz = gzipSync(await packTar(names(8).map((name) => ({ header: { name, size: MIB }, body: zeros }))), { level: 9 });
    const zip = zipSync(Object.fromEntries(names(8).map((n) => [n, zeros])), { level: 9 });
    for (const bytes of [tgz, zip]) {
      const entries = await readArchive(bytes);
      expect(entries.map((e) => [e.path, e.bytes.length])).toEqual(names(8).map((n) => [n, MIB]));
    }
  });
});
