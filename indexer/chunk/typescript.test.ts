/**
 * JavaScript / TypeScript rules the goldens do not isolate: definitions by assignment
 * (CommonJS, pre-class prototypes) in both grammars, object literals taken as class bodies,
 * and what must stay out (nested assignments, anonymous callbacks). Runs in workerd; the
 * CommonJS golden is testdata/sample.cjs.txt.
 */
import { describe, expect, it } from "vitest";
import { chunkFile } from "./index";
import { expectWellFormed } from "./test-helpers";

const ASSIGNMENTS = [
  "View.prototype.lookup = function lookup(name) {",
  "  return name;",
  "};",
  "",
  "app.render = async (name) => {",
  "  return name;",
  "};",
  "",
  "exports.compileTrust = function (val) {",
  "  return val;",
  "};",
  "",
  "module.exports = function createApplication() {",
  "  return {};",
  "};",
  "",
  "res.contentType = res.type = function contentType(type) {",
  "  return type;",
  "};",
  "",
  "exports.compile = function compileTemplate(text) {",
  "  return text;",
  "};",
  "",
].join("\n");

describe("definitions by assignment", () => {
  it.each(["lib/app.js", "src/app.ts"])("are methods of the object, or functions of the module, in %s", async (path) => {
    const out = await chunkFile(path, ASSIGNMENTS);
    expectWellFormed(ASSIGNMENTS, out);
    expect(out.symbols.map((s) => [s.kind, s.name, s.container, s.startLine, s.endLine])).toEqual([
      ["method", "lookup", "View", 1, 3],
      ["method", "render", "app", 5, 7],
      ["function", "compileTrust", undefined, 9, 11],
      ["function", "createApplication", undefined, 13, 15],
      // A chain is named after its first target; the others with the same owner are aliases.
      ["method", "contentType", "res", 17, 19],
      ["method", "type", "res", 17, 19],
      // So is a function's own name when it differs from the property.
      ["function", "compile", undefined, 21, 23],
      ["function", "compileTemplate", undefined, 21, 23],
    ]);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["method", "lookup", 1, 3],
      ["method", "render", 5, 7],
      ["function", "compileTrust", 9, 11],
      ["function", "createApplication", 13, 15],
      ["method", "contentType", 17, 19],
      ["function", "compile", 21, 23],
    ]);
    expect(out.symbols[0].signature).toBe("View.prototype.lookup = function lookup(name)");
  });

  it("keeps a long one as windows that keep its name, with the doc comment above", async () => {
    const body = Array.from({ length: 150 }, (_, i) => `  total += ${i};`).join("\n");
    const text = `/** Sums. */\nres.sum = function sum() {\n  let total = 0;\n${body}\n  return total;\n};\n`;
    const out = await chunkFile("lib/res.js", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.container, c.startLine, c.endLine])).toEqual([
      ["method", "sum", "res", 1, 120],
      ["method", "sum", "res", 111, 155],
    ]);
    expect(out.symbols).toEqual([
      { name: "sum", kind: "method", container: "res", signature: "res.sum = function sum()", doc: "Sums.", startLine: 2, endLine: 155 },
    ]);
  });

  it("takes a prototype object as the class body of its constructor, split like a class when long", async () => {
    const text = [
      "function Cache() {}",
      "",
      "Cache.prototype = {",
      "  constructor: Cache,",
      "  get(key) {",
      "    return this[key];",
      "  },",
      "  set: function (key, value) {",
      "    this[key] = value;",
      "  },",
      "};",
      "",
    ].join("\n");
    const whole = await chunkFile("lib/cache.js", text);
    expectWellFormed(text, whole);
    expect(whole.chunks.map((c) => [c.kind, c.symbol, c.container, c.startLine, c.endLine])).toEqual([
      ["function", "Cache", undefined, 1, 1],
      ["class", "Cache", undefined, 3, 11],
    ]);
    // The constructor function is the only `Cache` symbol; the object adds its methods.
    expect(whole.symbols.map((s) => [s.kind, s.name, s.container])).toEqual([
      ["function", "Cache", undefined],
      ["method", "get", "Cache"],
      ["method", "set", "Cache"],
    ]);
    const split = await chunkFile("lib/cache.js", text, { maxChunkLines: 5 });
    expectWellFormed(text, split);
    expect(split.chunks.map((c) => [c.kind, c.symbol, c.container, c.startLine, c.endLine])).toEqual([
      ["function", "Cache", undefined, 1, 1],
      ["class", "Cache", undefined, 3, 4],
      ["method", "get", "Cache", 5, 7],
      ["method", "set", "Cache", 8, 11],
    ]);
  });

  it("takes the methods of a module.exports object as methods without a container", async () => {
    const text = "module.exports = {\n  get status() {\n    return 1;\n  },\n  redirect(url) {\n    return url;\n  },\n  body: null,\n};\n";
    const out = await chunkFile("lib/response.js", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([["module", undefined, 1, 9]]);
    expect(out.symbols.map((s) => [s.kind, s.name, s.container])).toEqual([
      ["method", "status", undefined],
      ["method", "redirect", undefined],
    ]);
  });

  it("names a named function passed to a module-level call, not an anonymous callback", async () => {
    const text = [
      "defineGetter(req, 'protocol', function protocol() {",
      "  return 'http';",
      "});",
      "",
      "describe('app', function () {",
      "  it('works', function works() {});",
      "});",
      "",
      "compose(function a() {}, function b() {});",
      "",
    ].join("\n");
    const out = await chunkFile("lib/request.js", text);
    expectWellFormed(text, out);
    expect(out.symbols.map((s) => [s.kind, s.name, s.startLine, s.endLine])).toEqual([["function", "protocol", 1, 3]]);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["function", "protocol", 1, 3],
      ["module", undefined, 5, 9],
    ]);
  });

  it("leaves nested assignments, computed names and plain values inside their chunk", async () => {
    const text = [
      "function View(name) {",
      "  this.name = name;",
      "  this.render = function render() {};",
      "}",
      "",
      "methods.forEach(function (method) {",
      "  app[method] = function () {};",
      "});",
      "",
      "exports.etag = createETagGenerator({ weak: false });",
      "Router.prototype = function () {};",
      "",
    ].join("\n");
    const out = await chunkFile("lib/view.js", text);
    expectWellFormed(text, out);
    expect(out.symbols.map((s) => [s.kind, s.name])).toEqual([["function", "View"]]);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["function", "View", 1, 4],
      ["module", undefined, 6, 11],
    ]);
  });

  it("makes an unnamed module.exports function a function chunk without a symbol", async () => {
    const text = "const a = require('a');\n\nmodule.exports = function (opts) {\n  return a(opts);\n};\n";
    const out = await chunkFile("lib/index.js", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.signature, c.startLine, c.endLine])).toEqual([
      ["module", undefined, undefined, 1, 1],
      ["function", undefined, "module.exports = function (opts)", 3, 5],
    ]);
    expect(out.symbols).toEqual([]);
    expect(out.imports).toEqual(["const a = require('a');"]);
  });
});

describe("JSDoc one blank line above a definition", () => {
  it("belongs to a function or method, not to a file header or a run of variables", async () => {
    const text = [
      "/**",
      " * Utilities.",
      " */",
      "",
      "function first() {}",
      "",
      "/**",
      " * Module variables.",
      " */",
      "",
      "var a = 1;",
      "var b = 2;",
      "",
      "/**",
      " * Parse the `val`.",
      " */",
      "",
      "exports.parse = function parse(val) {",
      "  return val;",
      "};",
      "",
      "// a line comment stays apart",
      "",
      "function last() {}",
      "",
    ].join("\n");
    const out = await chunkFile("lib/utils.js", text);
    expectWellFormed(text, out);
    expect(out.chunks.map((c) => [c.kind, c.symbol, c.startLine, c.endLine])).toEqual([
      ["module", undefined, 1, 3],
      ["function", "first", 5, 5],
      ["module", undefined, 7, 9],
      ["module", "a, b", 11, 12],
      ["function", "parse", 14, 20],
      ["module", undefined, 22, 22],
      ["function", "last", 24, 24],
    ]);
    const parse = out.symbols.find((s) => s.name === "parse");
    expect([parse?.doc, parse?.startLine, parse?.endLine]).toEqual(["Parse the `val`.", 18, 20]);
  });
});
