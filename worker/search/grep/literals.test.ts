/** Table tests: the literals a regex requires, and the FTS5 trigram expression made of them. */
import { describe, expect, it } from "vitest";
import { requiredLiterals, type Requirement } from "./literals";
import { literalTrigrams, trigramMatch, TRIGRAMS_PER_QUERY_MAX } from "./trigram-query";

/** A requirement as a short string: lit "x", and(...), or(...), any. */
function show(r: Requirement): string {
  if (r.kind === "any") return "any";
  if (r.kind === "lit") return JSON.stringify(r.text);
  return `${r.kind}(${r.of.map(show).join(", ")})`;
}

describe("requiredLiterals", () => {
  const cases: [string, string][] = [
    ["parseSigned", '"parseSigned"'],
    ["parseSigned\\(", '"parseSigned("'],
    ["TODO\\((security|perf)\\)", 'or("TODO(security)", "TODO(perf)")'],
    ["c\\.(req|res)\\.[a-z]+", 'or("c.req.", "c.res.")'],
    ["(get|set|has)[A-Z][a-z]+\\(", 'and(or("get", "set", "has"), "(")'],
    ["\\breturn (true|false|None)\\b", 'or("return true", "return false", "return None")'],
    [
      "(a|b)(c|d)(e|f)(g|h)(i|j)x",
      'and(or("aceg", "aceh", "acfg", "acfh", "adeg", "adeh", "adfg", "adfh", "bceg", "bceh", "bcfg", "bcfh", "bdeg", "bdeh", "bdfg", "bdfh"), or("ix", "jx"))',
    ],
    ["x(a.c|def)y", 'and("x", or(and("a", "c"), "def"), "y")'],
    ["(?:TODO\\(security\\))", '"TODO(security)"'],
    ["foo|bar", 'or("foo", "bar")'],
    ["foo|.*", "any"],
    ["ab+c", 'and("ab", "bc")'],
    ["colou?r", 'and("colo", "r")'],
    ["fo*bar", 'and("f", "bar")'],
    ["\\bword\\b", '"word"'],
    ["^import .*from", 'and("import ", "from")'],
    ["[A-Z_]{6,}_FLAG", '"_FLAG"'],
    ["\\d+px", 'and(or("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"), or("0px", "1px", "2px", "3px", "4px", "5px", "6px", "7px", "8px", "9px"))'],
    ["a{2}bcd", 'and("a", "abcd")'],
    ["x{3,}yz", 'and("x", "xyz")'],
    ["(abc)?def", '"def"'],
    ["(abc)+def", 'and("abc", "def")'],
    ["\\Qa.b*c\\E", '"a.b*c"'],
    ["(?i)Hello", '"Hello"'],
    ["(?P<name>foo)bar", '"foobar"'],
    ["a[)|]bc", 'or("a)bc", "a|bc")'],
    // Small classes are sets of literals: \s without the newline (a match never spans lines).
    ["\\bdef\\s+[a-z_]+\\(", 'and(or("def\\t", "def\\f", "def\\r", "def "), or("\\t", "\\f", "\\r", " "), "(")'],
    ["[Tt]odo", 'or("Todo", "todo")'],
    ["[]a]bc", 'or("]bc", "abc")'],
    ["[a-c]{2}de", 'and(or("a", "b", "c"), or("ade", "bde", "cde"))'],
    ["foo[ab]+bar", 'and(or("fooa", "foob"), or("abar", "bbar"))'],
    ["[ab]?cde", '"cde"'],
    ["x\\tb", '"x\\tb"'],
    // Negated, POSIX, too large (11 characters) or newline-only classes require nothing.
    ["x[^ab]yz", 'and("x", "yz")'],
    ["abc[[:alpha:]]d", 'and("abc", "d")'],
    ["[\\d.]x", '"x"'],
    ["[a-z]x", '"x"'],
    ["[\\n]abc", '"abc"'],
    ["\\.\\$\\{", '".${"'],
    [".", "any"],
    ["", "any"],
  ];
  it.each(cases)("%s -> %s", (pattern, want) => {
    expect(show(requiredLiterals(pattern))).toBe(want);
  });
});

describe("trigramMatch", () => {
  it("takes non-overlapping trigrams first, then the last one, capped", () => {
    expect(literalTrigrams("parseSigned")).toEqual(["par", "seS", "ign", "ned", "ars", "rse", "eSi", "Sig"]);
    expect(literalTrigrams("ab")).toEqual([]);
    // Characters are code points: five characters, three trigrams.
    expect(literalTrigrams("日本語です")).toEqual(["日本語", "語です", "本語で"]);
  });
  it("quotes trigrams and keeps the formula's shape; literals under 3 characters require nothing", () => {
    expect(trigramMatch(requiredLiterals("TODO\\((security|perf)\\)"), false)).toBe(
      '("TOD" AND "O(s" AND "ecu" AND "rit" AND "ty)" AND "ODO" AND "DO(" AND "(se") OR ("TOD" AND "O(p" AND "erf" AND "rf)" AND "ODO" AND "DO(" AND "(pe" AND "per")',
    );
    expect(trigramMatch(requiredLiterals('say "hi"'), false)).toBe('"say" AND " ""h" AND "hi""" AND "ay " AND "y """ AND """hi"');
    expect(trigramMatch(requiredLiterals("ab|cde"), false)).toBeNull();
    expect(trigramMatch(requiredLiterals("\\d+"), false)).toBeNull();
  });
  it("gives each branch of a large or a share of the trigram budget instead of requiring nothing", () => {
    const m = trigramMatch(requiredLiterals("version\\d"), false)!;
    expect(m.split(" OR ")).toHaveLength(10);
    expect(m.split(" OR ")[0]).toBe('("ver" AND "sio" AND "on0" AND "ers")');
    expect(m.match(/"/g)!.length / 2).toBeLessThanOrEqual(TRIGRAMS_PER_QUERY_MAX);
  });
  it("drops non-ASCII trigrams when case-insensitive (folding may differ from the tokenizer's)", () => {
    expect(trigramMatch({ kind: "lit", text: "Größe" }, false)).toBe('"Grö" AND "öße" AND "röß"');
    expect(trigramMatch({ kind: "lit", text: "Größe" }, true)).toBeNull();
  });
});
