/**
 * `verifyFilledTest` on small pytest/unittest files with a stand-in index (a set of names) and a
 * stand-in repo (top-level package `billing`): what counts as defined locally, a builtin or
 * framework name, an outside import or an in-repo reference.
 */
import { describe, expect, it } from "vitest";
import { verifyFilledTest } from "./fill-verify";

const index = (names: string[]) => async (asked: string[]) => new Set(asked.filter((n) => names.includes(n)));
const inRepo = (m: string) => m.startsWith(".") || m.split(".")[0] === "billing";

describe("verifyFilledTest (Python)", () => {
  it("accepts locals, parameters, targets, builtins, pytest/mock and outside imports", async () => {
    const test = [
      "import pytest",
      "from unittest import mock",
      "import json as j",
      "from billing.parser import ParseError, parse",
      "",
      "@pytest.fixture",
      "def lines():",
      '    return ["a=1", "b=2"]',
      "",
      "def test_parse(lines, tmp_path):",
      '    result = parse("\\n".join(lines))',
      "    key, value = next(iter(result.items()))",
      "    doubled = [k.upper() for k in result.keys() if (n := len(k))]",
      '    assert j.dumps(result) and key == "a" and doubled == ["A", "B"] and n',
      "    with pytest.raises(ParseError) as exc:",
      '        parse("x")',
      '    assert "no" in str(exc.value)',
      "    fake = mock.Mock(return_value=1)",
      "    fake.assert_not_called()",
      "    try:",
      "        int(value)",
      "    except ValueError as err:",
      "        print(err)",
    ].join("\n");
    expect(await verifyFilledTest("python", test, index(["parse", "ParseError"]), inRepo)).toEqual({ ok: true });
  });

  it("accepts a unittest TestCase using self assertions and its own helpers", async () => {
    const test = [
      "import unittest",
      "from billing.parser import ReportParser",
      "class TestReport(unittest.TestCase):",
      "    def setUp(self):",
      "        self.subject = ReportParser(strict=True)",
      "    def build(self):",
      "        return self.subject",
      "    def test_parse(self):",
      '        self.assertEqual(self.build().parse("a"), ["a"])',
      "        with self.assertRaises(ValueError):",
      '            self.subject.parse("")',
    ].join("\n");
    expect(await verifyFilledTest("python", test, index(["ReportParser", "parse"]), inRepo)).toEqual({ ok: true });
  });

  it("reports an in-repo import the repo lacks, an unknown helper and a method called on an in-repo value", async () => {
    const test = [
      "from billing.parser import ReportParser, nope",
      "def test_x():",
      "    subject = ReportParser(True)",
      "    subject.checkout()",
      "    assert make_report() == nope",
    ].join("\n");
    expect(await verifyFilledTest("python", test, index(["ReportParser"]), inRepo)).toEqual({
      ok: false,
      syntaxErrors: [],
      unresolved: [
        { name: "nope", line: 1 },
        { name: "make_report", line: 5 },
        { name: "checkout", line: 4 },
      ],
    });
  });

  it("reports syntax errors with their lines", async () => {
    const broken = await verifyFilledTest("python", 'def test_x():\n    assert parse("a" == 1\n', index(["parse"]), inRepo);
    expect(broken.ok).toBe(false);
    expect(broken.ok === false && broken.syntaxErrors.length).toBeGreaterThan(0);
  });
});
