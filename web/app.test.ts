import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("web search page", () => {
  it("serves an accessible search form with a strict CSP", async () => {
    const res = await SELF.fetch("http://localhost/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const page = await res.text();
    expect(page).toContain('<html lang="en">');
    expect(page).toMatch(/<form id="search-form" role="search"/);
    expect(page).toMatch(/<label for="q">[^<]+<\/label>/);
    expect(page).toMatch(/<label for="repo">[^<]+<\/label>/);
    expect(page).toContain('<script src="/assets/search.js" defer></script>');
    expect(page).toMatch(/id="status"[^>]*role="status"/);
    // No inline script: everything runs from /assets/search.js, which the CSP allows.
    expect(page.match(/<script[^>]*>[^<]+<\/script>/)).toBeNull();
  });

  it("prefills the form from the URL, escaped", async () => {
    const q = '"><script>alert(1)</script>';
    const res = await SELF.fetch(`http://localhost/?q=${encodeURIComponent(q)}&repo=${encodeURIComponent("a&b")}`);
    const page = await res.text();
    expect(page).not.toContain("<script>alert(1)</script>");
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).toContain('<option value="a&amp;b" selected>a&amp;b</option>');
  });

  it("serves the script and the stylesheet with their content types", async () => {
    const js = await SELF.fetch("http://localhost/assets/search.js");
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    const code = await js.text();
    expect(code).toContain('"/api/search?"');
    expect(code).not.toContain("innerHTML");
    const css = await SELF.fetch("http://localhost/assets/search.css");
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(await css.text()).toContain(".result");
  });
});
