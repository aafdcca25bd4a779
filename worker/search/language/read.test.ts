import { describe, expect, it } from "vitest";
import { detectLanguage } from "./detect";
import { readQueryLanguage } from "./read";

const words = (s: string) => s.split(/\s+/);

describe("readQueryLanguage", () => {
  it("leaves English queries alone", () => {
    for (const q of ["where is the signed cookie verified", "setSignedCookie", "TypeError: Cannot read properties of undefined (reading 'x')"]) {
      expect(readQueryLanguage(q)).toEqual({ language: "en", englishText: q, terms: [], passthrough: [], unmapped: [] });
    }
  });

  it("maps the issue's Chinese and Japanese questions to the code's vocabulary", () => {
    const cors = readQueryLanguage("跨域请求的允许来源在哪里设置");
    expect(cors.language).toBe("zh");
    expect(words(cors.englishText)).toEqual(expect.arrayContaining(["cors", "origin", "allow", "request"]));
    expect(cors.unmapped).toEqual(["的"]);
    const basic = readQueryLanguage("ベーシック認証はどこで実装されていますか");
    expect(basic.language).toBe("ja");
    expect(words(basic.englishText)).toEqual(expect.arrayContaining(["basic", "authentication", "implement"]));
    const signed = readQueryLanguage("如何验证签名的 cookie");
    expect(signed).toMatchObject({ language: "zh", englishText: "how verify signed cookie", passthrough: ["cookie"] });
    expect(signed.terms).toContainEqual({ source: "签名的", english: "signed" });
  });

  it("reads Korean, Spanish, Portuguese, German and French", () => {
    expect(readQueryLanguage("쿠키 서명은 어디에서 검증합니까?")).toMatchObject({ language: "ko", englishText: "cookie signature where verify" });
    expect(readQueryLanguage("¿Dónde se verifica la firma de una cookie?")).toMatchObject({ language: "es", englishText: "where verify signature cookie" });
    expect(readQueryLanguage("Como o tempo limite da requisição é configurado?")).toMatchObject({ language: "pt", englishText: "how timeout request config" });
    // A German compound is split into its glossary words; inflections match prefix forms.
    expect(readQueryLanguage("Wie werden Sitzungsschlüssel konfiguriert?")).toMatchObject({ language: "de", englishText: "how session key config" });
    const fr = readQueryLanguage("Comment l'application charge-t-elle une variable d'environnement ?");
    expect(fr.language).toBe("fr");
    expect(fr.terms.map((t) => t.english)).toEqual(["how", "application app", "load", "environment variable"]);
  });

  it("passes identifiers and quoted code through untouched", () => {
    const ja = readQueryLanguage("`c.req.header()` と「X-Forwarded-For」はどこで読み込まれますか");
    expect(ja.language).toBe("ja");
    expect(ja.passthrough).toEqual(["c.req.header()", "X-Forwarded-For"]);
    expect(ja.englishText.startsWith("c.req.header() X-Forwarded-For")).toBe(true);
    const es = readQueryLanguage("¿Qué hace app.use con el middleware de parse_args y la opción --verbose en src/index.ts?");
    expect(es.language).toBe("es");
    expect(es.passthrough).toEqual(["app.use", "parse_args", "--verbose", "src/index.ts"]);
    expect(words(es.englishText)).toEqual(expect.arrayContaining(["middleware", "option"]));
    // Header-Case words of the language are words; a fragment after a code span is prose.
    const de = readQueryLanguage("Wo werden Sicherheits-Header wie `Content-Security-Policy` gesetzt?");
    expect(de).toMatchObject({ englishText: "where security header how Content-Security-Policy set", passthrough: ["Content-Security-Policy"] });
    // An English line (a pasted error) inside a question in another language stays whole.
    const pt = readQueryLanguage("Por que esta exceção aparece?\nRuntimeError: Working outside of application context.");
    expect(pt.passthrough).toContain("RuntimeError: Working outside of application context.");
    expect(words(pt.englishText)).toContain("exception");
  });

  it("keeps English words and proper nouns, and lists the words it could not map", () => {
    const r = readQueryLanguage("¿Cómo registra Flask las rutas mediante un blueprint y un decorador?");
    expect(r.passthrough).toEqual(expect.arrayContaining(["Flask", "blueprint"]));
    expect(r.terms.map((t) => t.english)).toEqual(expect.arrayContaining(["how", "register", "route", "decorator"]));
    expect(r.unmapped).toEqual(["mediante"]);
  });
});

describe("detectLanguage", () => {
  it("decides by script for CJK and by function words for Latin script", () => {
    expect(detectLanguage("hono の cors middleware")).toBe("en"); // mostly English: one particle does not make it Japanese
    expect(detectLanguage("hono の cors ミドルウェア")).toBe("ja");
    expect(detectLanguage("hono 的 cors 中间件")).toBe("zh");
    expect(detectLanguage("hono cors 미들웨어")).toBe("ko");
    expect(detectLanguage("where is the cookie signature checked")).toBe("en");
    expect(detectLanguage("how is the firma checked")).toBe("en");
    expect(detectLanguage("Où sont les en-têtes de la réponse")).toBe("fr");
    expect(detectLanguage("Wo sind die Header der Antwort")).toBe("de");
    expect(detectLanguage("Onde estão os cabeçalhos da resposta")).toBe("pt");
    expect(detectLanguage("Dónde están las cabeceras de la respuesta")).toBe("es");
  });

  it("reads English error messages and stack traces as English, whatever words their code holds", () => {
    // "com" is Portuguese for "with", "die" and "was" German, "a" and "as" Portuguese: as code or as English words they count for nothing.
    expect(detectLanguage("com.acme.billing.InvoiceParseException: Expected a number but was STRING\n\tat com.acme.billing.Parser.read(Parser.java:41)")).toBe(
      "en",
    );
    expect(detectLanguage("panic: the worker was stopped before the die roll\n\ngoroutine 7 [running]:\nmain.run()\n\t/src/app/main.go:12 +0x1d")).toBe("en");
    expect(detectLanguage("accept a 64-bit id, also as quoted strings or as doubles")).toBe("en");
  });
});
