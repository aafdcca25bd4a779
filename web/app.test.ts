import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

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
    expect(page).toContain('<script type="module" src="/assets/search.js"></script>');
    expect(page).toContain('<option value="typescript">typescript</option>');
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
  });

  it("serves the repositories page with the same CSP", async () => {
    const res = await SELF.fetch("http://localhost/repos");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const page = await res.text();
    expect(page).toContain('<script type="module" src="/assets/repos.js"></script>');
    expect(page).toContain('<a href="/repos" aria-current="page">');
    expect(page).toMatch(/<label for="git-url">/);
  });

  it("serves the bundled scripts and stylesheet with content types and ETags", async () => {
    for (const name of ["search.js", "source.js", "repos.js"]) {
      const js = await SELF.fetch(`http://localhost/assets/${name}`);
      expect(js.status).toBe(200);
      expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
      const etag = js.headers.get("etag") ?? "";
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      await js.text();
      const again = await SELF.fetch(`http://localhost/assets/${name}`, { headers: { "if-none-match": etag } });
      expect(again.status).toBe(304);
    }
    // The page's own code builds DOM with textContent only (scripts/build-web.ts refuses HTML
    // sinks in web/client/; highlight.js' unused highlightElement is the one in search/source.js).
    expect(await (await SELF.fetch("http://localhost/assets/repos.js")).text()).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    const search = await (await SELF.fetch("http://localhost/assets/search.js")).text();
    expect(search).toContain("/api/search?");
    const css = await SELF.fetch("http://localhost/assets/styles.css");
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(await css.text()).toContain("prefers-color-scheme:dark");
    expect((await SELF.fetch("http://localhost/assets/nope.js")).status).toBe(404);
    expect((await SELF.fetch("http://localhost/assets/constructor")).status).toBe(404);
  });
});
