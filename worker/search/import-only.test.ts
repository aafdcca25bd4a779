import { describe, expect, it } from "vitest";
import { asksAboutImports, isImportOnly } from "./import-only";

describe("import-only chunks", () => {
  it.each([
    ["hono compose.ts:1-2", "import type { Context } from './context'\nimport type { Env, ErrorHandler, Next, NotFoundHandler } from './types'\n"],
    [
      "multi-line TS import with a licence comment",
      '/**\n * @license MIT\n */\nimport {\n  a,\n  b as c,\n} from "./x";\nimport "./side-effect";\nexport * from "./y";',
    ],
    ["CommonJS", 'const fs = require("fs");\nconst { join } = require("path");'],
    ["Python", "import os\nimport sys, re\nfrom typing import (\n    Any,\n    Dict,\n)\n"],
    ["Go", 'package main\n\nimport (\n\t"fmt"\n\t"net/http"\n)'],
    ["Java", "package a.b;\n\nimport java.util.List;\nimport static org.junit.Assert.*;"],
    ["Rust", "use std::collections::{HashMap,\n    HashSet};\nmod parser;\nextern crate alloc;"],
    ["C", '#include <stdio.h>\n#include "local.h"\n#pragma once'],
    ["C#", "using System;\nusing System.Linq;\nnamespace App;"],
    ["Ruby", 'require "json"\nrequire_relative "lib/x"'],
    ["PHP", "<?php\nnamespace App\\Http;\nuse Illuminate\\Support\\Str;"],
  ])("%s is import-only", (_, content) => {
    expect(isImportOnly(content)).toBe(true);
  });

  it.each([
    ["a function after the imports", 'import { db } from "./db";\n\nexport function load() {\n  return db.all();\n}'],
    ["an export that declares", "export const x = 1;"],
    ["a function followed by an import (no statement spans them)", 'export function a() { return b }\nimport c from "d"'],
    ["comments alone", "// nothing here\n/* at all */"],
    ["a Python call", "import os\nos.makedirs(path)"],
    ["Go code", 'package main\n\nfunc main() { fmt.Println("x") }'],
    ["an empty chunk", ""],
  ])("%s is not import-only", (_, content) => {
    expect(isImportOnly(content)).toBe(false);
  });

  it("tells questions about imports from questions about behaviour", () => {
    expect(asksAboutImports("which files import the context type")).toBe(true);
    expect(asksAboutImports("where are the dependencies of compose loaded")).toBe(true);
    expect(asksAboutImports('where is require("fs") used')).toBe(true);
    expect(asksAboutImports("#include <stdio.h>")).toBe(true);
    expect(asksAboutImports("how does compose call the next middleware")).toBe(false);
    expect(asksAboutImports("which routes require a signed-in user")).toBe(false);
  });
});
