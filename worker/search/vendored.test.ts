import { describe, expect, it } from "vitest";
import { isVendoredFile, vendorFilePatterns } from "./vendored";

describe("vendorFilePatterns: Linguist's vendor.yml, file patterns only", () => {
  it("keeps file patterns, drops directory patterns and comments, unquotes items", () => {
    const yml = "# Vendored\n- (^|/)cache/\n- (^|/)jquery([^.]*)\\.js$\n- '(^|/)Vagrantfile$'\n\n- ^vendor/\n";
    expect(vendorFilePatterns(yml).map((re) => re.source)).toEqual(["(^|\\/)jquery([^.]*)\\.js$", "(^|\\/)Vagrantfile$"]);
  });

  it("throws on an item that is not a JavaScript regex", () => {
    expect(() => vendorFilePatterns("- (^|/)broken[\n")).toThrow(SyntaxError);
  });
});

describe("isVendoredFile: the shipped list", () => {
  it.each([
    ["sphinx/themes/basic/static/jquery-3.5.1.js", true],
    ["web/static/js/jquery.min.js", true],
    ["lib/bootstrap.css", true],
    ["src/middleware/cache/index.ts", false],
    ["src/jquery_helpers.py", false],
    ["sphinx/themes/basic/static/searchtools.js", false],
    ["Sphinx/Themes/JQUERY.JS", false],
  ])("%s -> %s", (path, want) => expect(isVendoredFile(path)).toBe(want));
});
