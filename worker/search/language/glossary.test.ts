import { describe, expect, it } from "vitest";
import { foldLatin, GLOSSARY_LANGUAGES, glossaryStats, tableOf } from "./glossary";
import glossary from "./glossary.json";

type Entry = { en: string } & Record<string, string[] | string>;

describe("glossary.json", () => {
  it("covers seven languages with English that is lowercase words", () => {
    const { entries, forms } = glossaryStats();
    expect(entries).toBeGreaterThanOrEqual(150);
    for (const lang of GLOSSARY_LANGUAGES) expect(forms[lang], lang).toBeGreaterThanOrEqual(150);
    const bad = (glossary.terms as Entry[]).filter((t) => !/^[a-z]+( [a-z]+)*$/.test(t.en)).map((t) => t.en);
    expect(bad).toEqual([]);
  });

  it("holds only forms the reader can match", () => {
    const problems: string[] = [];
    for (const t of glossary.terms as Entry[]) {
      for (const lang of GLOSSARY_LANGUAGES) {
        for (const form of (t[lang] as string[] | undefined) ?? []) {
          if (!form.trim() || form !== form.trim()) problems.push(`${t.en} ${lang} "${form}": blank or padded`);
          const cjk = lang === "zh" || lang === "ja" || lang === "ko";
          // A prefix shorter than 3 letters would swallow unrelated words; CJK forms are never prefixes.
          if (form.endsWith("*") && (cjk || form.length < 4)) problems.push(`${t.en} ${lang} "${form}": bad prefix`);
          if (!cjk && form !== form.toLowerCase()) problems.push(`${t.en} ${lang} "${form}": not lowercase`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("builds tables that find folded words and longest prefixes", () => {
    expect(tableOf("zh").exact.get("中间件")).toBe("middleware");
    expect(tableOf("de").exact.get(foldLatin("Überprüfung"))).toBe("verify");
    const es = tableOf("es").prefixes;
    expect(es.findIndex(([p]) => p === "configura")).toBeLessThan(es.findIndex(([p]) => p === "limit"));
    expect(tableOf("fr").exact.get("variable d environnement")).toBe("environment variable");
  });
});
