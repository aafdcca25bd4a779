import { describe, expect, it } from "vitest";
import { mayFollowTemplate, stripTemplateText, templateLines } from "./issue-templates";

const MARKDOWN_TEMPLATE = `---
name: Bug report
about: Create a report to help us improve
---

<!-- Please include a self-contained copy-pastable example. -->

**What happened**:

**What you expected to happen**:

**Environment**:

<details><summary>Output of <tt>xr.show_versions()</tt></summary>

</details>`;

const ISSUE_FORM = `name: Bug Report
body:
  - type: input
    attributes:
      label: What version of Hono are you using?
      placeholder: 0.0.0
  - type: textarea
    attributes:
      label: What steps can reproduce the bug?
      description: Explain the bug and provide a code snippet that can reproduce it.`;

describe("issue templates", () => {
  it("normalizes template lines: markup, HTML tags and YAML keys ignored", () => {
    const lines = templateLines([MARKDOWN_TEMPLATE, ISSUE_FORM]);
    expect(lines.has("what happened")).toBe(true);
    expect(lines.has("output of xr show_versions")).toBe(true);
    expect(lines.has("what version of hono are you using")).toBe(true);
    expect(lines.has("explain the bug and provide a code snippet that can reproduce it")).toBe(true);
    expect([...lines].some((l) => l.includes("label"))).toBe(false);
  });

  it("removes the lines a template supplied and keeps the reporter's own", () => {
    const lines = templateLines([MARKDOWN_TEMPLATE]);
    const report = [
      "**What happened**:",
      "",
      "`xr.where(cond, x, y, keep_attrs=True)` drops the attributes.",
      "**Environment**:",
      "<details><summary>Output of <tt>xr.show_versions()</tt></summary>",
      "python: 3.9.7",
    ].join("\n");
    const { text, removed } = stripTemplateText(report, lines);
    expect(removed).toBe(3);
    expect(text).toBe(["", "`xr.where(cond, x, y, keep_attrs=True)` drops the attributes.", "python: 3.9.7"].join("\n"));
  });

  it("cuts a template heading of two or more words from the start of a line, keeping what follows", () => {
    const lines = templateLines(["Environment:\n\n- Python version:\n- Click version:"]);
    const { text, removed } = stripTemplateText("- Python version: 3.12.2\nEnvironment variables leak into the child", lines);
    // One-word template lines ("Environment") are removed only as whole lines.
    expect(text).toBe(": 3.12.2\nEnvironment variables leak into the child");
    expect(removed).toBe(1);
  });

  it("reads a ticked task-list box as the template's empty one", () => {
    const lines = templateLines(["- [ ] pytest and operating system versions\n- [ ] output of `pip list` from the virtual environment you are using"]);
    const report =
      "- [x] pytest and operating system versions\n- [X] output of `pip list` from the virtual environment you are using: see below\nassert all() hides the item";
    const { text, removed } = stripTemplateText(report, lines);
    expect(removed).toBe(2);
    expect(text).toBe(": see below\nassert all() hides the item");
  });

  it("removes a line that holds a whole template line of 4 or more words making up half of it (an older wording)", () => {
    const lines = templateLines(["- [ ] a detailed description of the bug or suggestion\n- [ ] minimal example if possible"]);
    const report = [
      "- [x] Include a detailed description of the bug or suggestion",
      "- [x] Minimal example if possible",
      "the rewriter should give a detailed description of the bug or suggestion it finds when it unrolls generator expressions in asserts and comprehensions",
    ].join("\n");
    const { text, removed } = stripTemplateText(report, lines);
    // The third line holds the template's words too, but they are less than half of it.
    expect(removed).toBe(2);
    expect(text).toBe(report.split("\n")[2]);
  });

  it("removes a reworded template line (similarity 2M / (a + b) of at least 0.75 over words in order)", () => {
    const lines = templateLines(["- [ ] output of `pip list` from the virtual environment you are using\n- [ ] minimal example if possible"]);
    const report = [
      // An older wording: 8 words in common, 2 x 8 / (9 + 11) = 0.8.
      "- [x] `pip list` of the virtual environment you are using",
      // The reporter's sentence shares 5 words in order, 2 x 5 / (13 + 11) = 0.42.
      "the assertion rewriter fails when the virtual environment you are using is read-only",
      // Too few words in common: 3.
      "- [x] minimal example, see below",
    ].join("\n");
    const { text, removed } = stripTemplateText(report, lines);
    expect(removed).toBe(1);
    expect(text).toBe(report.split("\n").slice(1).join("\n"));
  });

  it("changes nothing without templates, and only multi-line queries may follow one", () => {
    expect(stripTemplateText("What happened\nx", new Set())).toEqual({ text: "What happened\nx", removed: 0 });
    expect(mayFollowTemplate("where are cookies signed")).toBe(false);
    expect(mayFollowTemplate("title\n\nbody line\nmore")).toBe(true);
  });
});
