/**
 * `codebase-copilot index <url> --ref X` on a repo that already exists (issue #49): the CLI's
 * client (bin/lib/api-client.ts `registerUrl`) used to turn 409 `repo_exists` into a refresh of
 * the tracked ref and report success while nothing of X was indexed. It now refuses another ref
 * with 409 `ref_not_tracked` (CLI exit code 5), and refreshes only for the tracked ref or no ref.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiError, createApiClient } from "../../bin/lib/api-client";
import { EXIT, exitCodeForStatus } from "../../bin/lib/exit-codes";
import { fixtureUrl, registerAndWait, repoStatus, waitForJob } from "./ingest-helpers";

/** The CLI's client, calling this Worker in process. */
function cliClient() {
  return createApiClient("http://localhost", env.ADMIN_TOKEN ?? "", (input, init) => SELF.fetch(input, init));
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("index <url> --ref on an existing repo", () => {
  it("refuses a ref the repo does not track, and the snapshot stays where it was", async () => {
    const url = fixtureUrl();
    const first = await registerAndWait({ url, name: "cli-ref" });
    expect(first.status).toBe("ready");
    const commit = first.snapshot!.commit;

    const err = await rejection(cliClient().registerUrl(url, { ref: "change", name: "cli-ref" }));
    expect(err.status).toBe(409);
    expect(err.code).toBe("ref_not_tracked");
    expect(err.message).toContain('nothing was indexed for "change"');
    expect(err.message).toContain("--name cli-ref-change");
    expect(exitCodeForStatus(err.status)).toBe(EXIT.error);

    const after = await repoStatus("cli-ref");
    expect(after.snapshot!.commit).toBe(commit);
    expect(after.ref).toBeNull();
    expect(after.job?.id).toBe(first.job?.id); // no job was started
  });

  it("refreshes when the ref is the tracked one, or when none is given", async () => {
    const url = fixtureUrl();
    await registerAndWait({ url, name: "cli-ref-tracked", ref: "change" });
    const same = await cliClient().registerUrl(url, { ref: "refs/heads/change", name: "cli-ref-tracked" });
    expect(same.id).toBe("cli-ref-tracked");
    const done = await waitForJob("cli-ref-tracked", same.job!.id);
    expect(done.status).toBe("ready");
    expect(done.ref).toBe("change");

    const none = await cliClient().registerUrl(url, { name: "cli-ref-tracked" });
    expect((await waitForJob("cli-ref-tracked", none.job!.id)).status).toBe("ready");
  });
});
