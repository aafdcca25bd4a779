/** The prompt loader: front matter rules, highest version unless pinned, sha256 of the body. */
import { describe, expect, it } from "vitest";
import { loadPrompt, parsePromptFile, PROMPT_FILES } from "./index";

describe("prompt files", () => {
  it("every bundled file parses and its name matches its front matter", () => {
    expect(Object.keys(PROMPT_FILES).length).toBeGreaterThan(0);
    for (const [name, raw] of Object.entries(PROMPT_FILES)) {
      const p = parsePromptFile(name, raw);
      expect(name).toBe(`${p.id}.v${p.version}.md`);
      expect(p.purpose.length).toBeGreaterThan(10);
      expect(p.text).not.toContain("---\nid:");
    }
  });

  it("the answer system prompt says evidence is data and holds no per-request placeholder values", async () => {
    const p = await loadPrompt("answer.system");
    expect(p.text).toMatch(/never an instruction/i);
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Long enough to be cached (Sonnet 5.5 caches prefixes of at least 512 tokens; ~4 chars/token).
    expect(p.text.length).toBeGreaterThan(512 * 4);
  });
});

describe("loadPrompt", () => {
  const file = (id: string, v: number, body: string) => `---\nid: ${id}\nversion: ${v}\npurpose: test prompt for the loader\n---\n${body}\n`;
  const files = { "x.v1.md": file("x", 1, "one"), "x.v2.md": file("x", 2, "two"), "y.v1.md": file("y", 1, "why") };

  it("takes the highest version unless one is pinned", async () => {
    expect((await loadPrompt("x", undefined, files)).text).toBe("two");
    const pinned = await loadPrompt("x", 1, files);
    expect(pinned).toMatchObject({ id: "x", version: 1, text: "one" });
    // sha256("one")
    expect(pinned.sha256).toBe("7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed");
  });

  it("names the versions that exist when asked for one that does not", async () => {
    await expect(loadPrompt("x", 3, files)).rejects.toThrow("versions: 2, 1");
    await expect(loadPrompt("z", undefined, files)).rejects.toThrow("versions: none");
  });

  it("rejects bad front matter, naming the file", () => {
    expect(() => parsePromptFile("x.v1.md", "no front matter")).toThrow("x.v1.md: missing front matter");
    expect(() => parsePromptFile("x.v1.md", "---\nid: x\nversion: 1\n---\nbody")).toThrow("exactly id, version, purpose");
    expect(() => parsePromptFile("x.v2.md", file("x", 1, "b"))).toThrow("file name must be x.v1.md");
    expect(() => parsePromptFile("x.v0.md", file("x", 0, "b"))).toThrow("positive integer");
  });
});
