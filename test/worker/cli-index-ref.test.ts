/**
 * `codebase-copilot index <url> --ref X` on a repo that already exists (issue #49): the CLI's
 * client (bin/lib/register-url.ts) used to turn 409 `repo_exists` into a refresh of the default
 * ref and report success while nothing of X was indexed. It now tracks X beside the default
 * branch (PATCH /api/repos/{id} {refs}) and follows it until X's own snapshot is ready, or fails
 * with the API's message (non-zero exit) when X does not exist.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiError, createApiClient } from "../../bin/lib/api-client";
import { EXIT, exitCodeForStatus } from "../../bin/lib/exit-codes";
import { followTracked, startIndexing } from "../../bin/lib/index-source";
import { describeTracked } from "../../bin/lib/register-url";
import { registerAndWait, repoStatus, waitForJob } from "./ingest-helpers";
import { createUpstream } from "./upstream";

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
  it("tracks the ref beside the default branch and indexes its own snapshot", async () => {
    const { url } = await createUpstream("cli-ref");
    const first = await registerAndWait({ url, name: "cli-ref" });
    expect(first.status).toBe("ready");
    const mainCommit = first.snapshot!.commit;

    const api = cliClient();
    const said: string[] = [];
    const started = await startIndexing(api, { source: url, ref: "change", name: "cli-ref" }, (line) => said.push(line));
    expect(said).toEqual([`Adding ref change to the existing repo "cli-ref" (${url}) ...`]);
    expect(started.tracked).toEqual([expect.objectContaining({ name: "refs/heads/change", pattern: "refs/heads/change", action: "queued" })]);
    expect(describeTracked(started)).toContain("tracks refs/heads/change at");
    const { status, failed } = await followTracked(api, "cli-ref", started.tracked!, 50);
    expect(failed).toEqual([]);
    const change = status.refs!.find((r) => r.name === "refs/heads/change")!;
    expect(change.status).toBe("ready");
    expect(change.commit).toBe(started.tracked![0].commit);
    expect(change.commit).not.toBe(mainCommit);
    // The default branch still serves readers that name no ref.
    const after = await repoStatus("cli-ref");
    expect(after.snapshot!.commit).toBe(mainCommit);
    expect(after.ref).toBeNull();

    // Asking again changes nothing and says the ref is already indexed.
    const again = await api.registerUrl(url, { ref: "refs/heads/change", name: "cli-ref" });
    expect(again.tracked).toEqual([expect.objectContaining({ name: "refs/heads/change", action: "unchanged" })]);
    expect((await repoStatus("cli-ref")).refPatterns).toEqual(["refs/heads/change"]);
  });

  it("fails with the API's message, and exits non-zero, for a ref the remote does not have", async () => {
    const { url } = await createUpstream("cli-ref-missing");
    const first = await registerAndWait({ url, name: "cli-ref-missing" });
    const err = await rejection(cliClient().registerUrl(url, { ref: "no-such-branch", name: "cli-ref-missing" }));
    expect(err.status).toBe(400);
    expect(err.code).toBe("invalid_input");
    expect(err.message).toContain('"no-such-branch" matches no branch or tag');
    expect(exitCodeForStatus(err.status)).not.toBe(EXIT.ok);
    const after = await repoStatus("cli-ref-missing");
    expect(after.refPatterns).toEqual([]);
    expect(after.job?.id).toBe(first.job?.id); // no job was started
  });

  it("refreshes when the ref is the default one, or when none is given", async () => {
    const { url } = await createUpstream("cli-ref-default");
    await registerAndWait({ url, name: "cli-ref-default", ref: "change" });
    const same = await cliClient().registerUrl(url, { ref: "refs/heads/change", name: "cli-ref-default" });
    expect(same.tracked).toBeUndefined();
    const done = await waitForJob("cli-ref-default", same.job!.id);
    expect(done.status).toBe("ready");
    expect(done.ref).toBe("change");

    const none = await cliClient().registerUrl(url, { name: "cli-ref-default" });
    expect((await waitForJob("cli-ref-default", none.job!.id)).status).toBe("ready");
  });
});
