/**
 * decodeText: short legacy-encoded files and UTF-8 with a few stray bytes are decoded and
 * indexed (issue 43), while text that fits no encoding stays `unsupported_encoding`.
 */
import { describe, expect, it } from "vitest";
import { createFileFilter } from "./file-filter";
import { decodeText, isDecoded, UTF8_MAX_STRAY_SEQUENCES } from "./decode";

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const utf8 = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe("decodeText: legacy and damaged text", () => {
  it("a short windows-1252 file (accents and a curly quote) decodes as windows-1252", () => {
    // 0xe9 é, 0xef ï, 0x92 ’ (windows-1252 only; ISO-8859-1 has a control there).
    const d = decodeText(latin1("// Caf\xe9 na\xefve r\xe9sum\xe9, it\x92s fine\nconst x = 1;\n"));
    expect(isDecoded(d) && d).toEqual({ text: "// Café naïve résumé, it’s fine\nconst x = 1;\n", encoding: "windows-1252" });
  });

  it("a UTF-8 file with one stray byte decodes as UTF-8, the stray byte as U+FFFD", () => {
    const d = decodeText(concat(utf8("// héllo wörld\nconst x = 1;\n"), new Uint8Array([0xff]), utf8("\nconst y = 2;\n")));
    expect(isDecoded(d) && d).toEqual({ text: "// héllo wörld\nconst x = 1;\n\ufffd\nconst y = 2;\n", encoding: "utf-8" });
  });

  it("ASCII with one stray byte that windows-1252 leaves undefined decodes as lossy UTF-8", () => {
    const d = decodeText(concat(utf8("const x = 1;\n"), new Uint8Array([0x81]), utf8("\nconst y = 2;\n")));
    expect(isDecoded(d) && d.text).toBe("const x = 1;\n\ufffd\nconst y = 2;\n");
  });

  it("more stray bytes than tolerated, in otherwise UTF-8 text, is not decoded as UTF-8", () => {
    const body = utf8(`// ${"é".repeat(20)}\n`);
    const noisy = concat(body, ...Array.from({ length: UTF8_MAX_STRAY_SEQUENCES + 1 }, () => concat(new Uint8Array([0x81]), utf8("x\n"))));
    const d = decodeText(noisy);
    expect(isDecoded(d) ? d.encoding : d.reason).not.toBe("utf-8");
  });

  it("half high bytes is unsupported_encoding, not windows-1252", () => {
    const d = decodeText(new Uint8Array(Array.from({ length: 100 }, (_, i) => (i % 2 ? 0xff : 0x41))));
    expect(d).toEqual({ reason: "unsupported_encoding", rule: "encoding:undetected" });
  });

  it("the file filter indexes both files", async () => {
    const filter = createFileFilter({ maxFileBytes: 1 << 20, ignoreFiles: [] });
    const [a, b] = await filter.checkContents([
      { path: "legacy.c", bytes: latin1("/* Gr\xfc\xdfe */\nint main(void) { return 0; }\n") },
      { path: "stray.ts", bytes: concat(utf8("export const π = 3.14;\n"), new Uint8Array([0xc3]), utf8("\n")) },
    ]);
    expect(a).toEqual({ text: "/* Grüße */\nint main(void) { return 0; }\n", encoding: "windows-1252" });
    expect(b).toEqual({ text: "export const π = 3.14;\n\ufffd\n", encoding: "utf-8" });
  });
});
