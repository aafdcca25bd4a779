import { describe, expect, it } from "vitest";
import { errorText } from "./api";
import { failure } from "./ask";

/** What `POST /api/ask` answers when the model API stays overloaded (worker/generation/anthropic.ts). */
const overloaded = {
  ok: false,
  status: 502,
  body: { error: { code: "generation_failed", message: "The model API is overloaded or failing and retries ran out; retry in a minute." } },
};

describe("error words", () => {
  it("give the model API's own reason, as the CLI does, not a generic server failure", () => {
    expect(errorText(overloaded)).toBe("The model API is overloaded or failing and retries ran out; retry in a minute.");
    expect(failure(overloaded)).toBe("The model API is overloaded or failing and retries ran out; retry in a minute.");
    const budget = {
      ok: false,
      status: 429,
      body: { error: { code: "budget_exhausted", message: "The daily answer budget of 50 is used up; it resets at 00:00 UTC." } },
    };
    expect(failure(budget)).toBe("The daily answer budget of 50 is used up; it resets at 00:00 UTC.");
  });

  it("name the tracked refs for an unknown ref, without the API route that adds one", () => {
    const message =
      'Repo "click" does not track ref "nope". Tracked refs: main (default), 8.4.2. To add one, PATCH the whole list (it replaces the tracked refs): ' +
      'PATCH /api/repos/click {"refs": ["refs/tags/*", "nope"]}, then read it once GET /api/repos/click lists it ready.';
    expect(errorText({ ok: false, status: 404, body: { error: { code: "ref_not_found", message } } })).toBe(
      "This repository does not track that branch or tag, or has not indexed it yet (tracked: main (default), 8.4.2). Pick one from the Branch or tag list.",
    );
    const commit =
      'Repo "click" has no snapshot at commit "2c8cd3a": reads serve the snapshots of tracked refs only. Tracked refs: main (default). Pass one of them, or omit ref for the default.';
    expect(errorText({ ok: false, status: 404, body: { error: { code: "ref_not_found", message: commit } } })).toContain("(tracked: main (default)). Pick one");
    const notYet = { error: { code: "ref_not_found", message: 'Ref "later" of repo "r" is tracked but has no indexed snapshot yet (status: indexing).' } };
    expect(errorText({ ok: false, status: 404, body: notYet })).toBe(
      "This repository does not track that branch or tag, or has not indexed it yet. Pick one from the Branch or tag list.",
    );
  });

  it("keep the generic words where the server gave no reason", () => {
    expect(errorText({ ok: false, status: 500, body: { error: { code: "internal", message: "D1_ERROR: no such table" } } })).toBe(
      "Something went wrong on the server; try again in a moment.",
    );
    expect(failure({ ok: false, status: 502, body: null })).toBe("Something went wrong on the server; try again in a moment.");
  });
});
