import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

/** The asset names a page refers to: its script, stylesheet and modulepreloads. */
function assetsOf(page: string): { script: string; styles: string; preloads: string[] } {
  return {
    script: /<script type="module" src="\/assets\/([^"]+)"><\/script>/.exec(page)?.[1] ?? "",
    styles: /<link rel="stylesheet" href="\/assets\/([^"]+)" \/>/.exec(page)?.[1] ?? "",
    preloads: [...page.matchAll(/<link rel="modulepreload" href="\/assets\/([^"]+)" \/>/g)].map((m) => m[1]),
  };
}

describe("web pages", () => {
  it("serves an accessible search form with filters and a strict CSP", async () => {
    const res = await SELF.fetch("http://localhost/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const page = await res.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toMatch(/<form id="search-form" role="search"/);
    for (const id of ["q", "repo", "language", "path", "mode", "tests", "question"]) expect(page).toMatch(new RegExp(`<label for="${id}">[^<]+`));
    expect(assetsOf(page).script).toMatch(/^search-[A-Z0-9]+\.js$/);
    expect(page).toContain('<option value="typescript">typescript</option>');
    // No query: nothing to preload.
    expect(page).not.toContain('rel="preload"');
    expect(page).toMatch(/id="status"[^>]*role="status"/);
    // No inline script: everything runs from /assets/*.js, which the CSP allows.
    expect(page.match(/<script[^>]*>[^<]+<\/script>/)).toBeNull();
    expect(page.match(/<style/)).toBeNull();
  });

  it("prefills the form from the URL, escaped", async () => {
    const q = '"><script>alert(1)</script>';
    const res = await SELF.fetch(`http://localhost/?q=${encodeURIComponent(q)}&repo=${encodeURIComponent("a&b")}&language=go&tests=1&mode=bm25&path=src%2F`);
    const page = await res.text();
    expect(page).not.toContain("<script>alert(1)</script>");
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).toContain('<option value="a&amp;b" selected>a&amp;b</option>');
    expect(page).toContain('<option value="go" selected>go</option>');
    expect(page).toContain('<option value="bm25" selected>');
    expect(page).toMatch(/id="tests"[^>]* checked/);
    expect(page).toMatch(/id="path"[^>]*value="src\/"/);
    // The search the script sends first is preloaded, with the very parameters it will use.
    expect(page).toContain(
      '<link rel="preload" as="fetch" href="/api/search?q=%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E&amp;k=20&amp;repo=a%26b&amp;language=go&amp;path_prefix=src%2F&amp;include_tests=true&amp;mode=bm25&amp;explain=true" crossorigin="anonymous" />',
    );
  });

  it("serves the repositories page with the same CSP", async () => {
    const res = await SELF.fetch("http://localhost/repos");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const page = await res.text();
    expect(assetsOf(page).script).toMatch(/^repos-[A-Z0-9]+\.js$/);
    expect(page).toContain('<a href="/repos" aria-current="page">');
    expect(page).toMatch(/<label for="git-url">/);
  });

  it("serves the bundled scripts, their chunks and the stylesheet immutable, by content-hashed names", async () => {
    const search = assetsOf(await (await SELF.fetch("http://localhost/")).text());
    const repos = assetsOf(await (await SELF.fetch("http://localhost/repos")).text());
    // highlight.js core is one shared chunk that the search page preloads; the repositories page does not need it.
    expect(search.preloads.length).toBeGreaterThan(0);
    const hljsChunks = [];
    for (const name of [search.script, repos.script, ...search.preloads]) {
      const js = await SELF.fetch(`http://localhost/assets/${name}`);
      expect(js.status).toBe(200);
      expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const etag = js.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      const body = await js.text();
      if (body.includes("highlightAuto")) hljsChunks.push(name);
      const again = await SELF.fetch(`http://localhost/assets/${name}`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
    }
    expect(hljsChunks.length).toBe(1);
    expect(search.preloads).toContain(hljsChunks[0]);
    expect(repos.preloads).not.toContain(hljsChunks[0]);
    // The page's own code builds DOM with textContent only (scripts/build-web.ts refuses HTML
    // sinks in web/client/; highlight.js' unused highlightElement is in the core chunk).
    expect(await (await SELF.fetch(`http://localhost/assets/${repos.script}`)).text()).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    expect(await (await SELF.fetch(`http://localhost/assets/${search.script}`)).text()).toContain("/api/search?");
    const css = await SELF.fetch(`http://localhost/assets/${search.styles}`);
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(await css.text()).toContain("prefers-color-scheme:dark");
    expect((await SELF.fetch("http://localhost/assets/nope.js")).status).toBe(404);
    expect((await SELF.fetch("http://localhost/assets/constructor")).status).toBe(404);
  });
});
