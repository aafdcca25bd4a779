/**
 * The git source's outbound guard against the loopback git server (test/git-server.ts): SSRF
 * refusals (the first URL and every redirect hop), timeouts, the byte cap, and one neutral
 * message for every host that does not answer as git. Only loopback is ever contacted: refused
 * destinations are refused before any connection.
 */
import { describe, expect, it, inject } from "vitest";
import { CodeSearchError } from "../../kernel/errors";
import { checkRemote, fetchSnapshot, parseGitUrl } from "./git";
import { createGuardedHttp, DEFAULT_TRANSPORT_LIMITS, GitTransportError } from "./guarded-http";

const base = () => inject("gitServerUrl");
const local = { allowLoopback: true };

async function codeAndMessage(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CodeSearchError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error("expected a CodeSearchError");
}

describe("parseGitUrl refuses internal destinations", () => {
  it.each([
    "http://127.0.0.1:8787/x.git",
    "http://2130706433/x.git",
    "http://0x7f.1/x.git",
    "http://[::ffff:127.0.0.1]/x.git",
    "http://localhost/x.git",
    "http://10.1.2.3/x.git",
    "http://169.254.169.254/latest/meta-data/",
    "http://0.0.0.0:8787/",
    "http://[fd12::1]/x.git",
  ])("%s", (url) => {
    expect(() => parseGitUrl(url, { allowLoopback: false })).toThrow(/only fetches from public hosts/);
  });
  it("allows loopback in local mode only", () => {
    expect(parseGitUrl("http://127.0.0.1:9/x.git", local).url).toBe("http://127.0.0.1:9/x.git");
    expect(() => parseGitUrl("http://192.168.0.1/x.git", local)).toThrow(/private-network address/);
  });
});

describe("checkRemote over the guarded transport", () => {
  it("follows a redirect to a git repository on an allowed host", async () => {
    const r = await checkRemote({ url: `${base()}/redirect/${encodeURIComponent(`${base()}/fixture.git`)}`, limits: local });
    expect(r.ref).toBe("refs/heads/main");
  });

  it("re-checks a redirect hop: a loopback URL bouncing to the metadata address is refused without a connection", async () => {
    const url = `${base()}/redirect/${encodeURIComponent("http://169.254.169.254/latest/meta-data")}`;
    const r = await codeAndMessage(checkRemote({ url, limits: local }));
    expect(r.code).toBe("invalid_input");
    expect(r.message).toMatch(/leads to 169\.254\.169\.254, a link-local address \(directly or by a redirect\)/);
  });

  it("a redirect to loopback is refused when loopback is not allowed (production)", async () => {
    // The first hop is checked the same way, before any request: nothing is contacted here.
    const r = await codeAndMessage(checkRemote({ url: `${base()}/fixture.git`, limits: { allowLoopback: false } }));
    expect(r.code).toBe("invalid_input");
    expect(r.message).toMatch(/a loopback address/);
  });

  it("bounds the time to the first response", async () => {
    const started = Date.now();
    const r = await codeAndMessage(checkRemote({ url: `${base()}/slow/5000/x.git`, limits: { ...local, connectTimeoutMs: 300 } }));
    expect(r.code).toBe("source_unreachable");
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("bounds the total time", async () => {
    const r = await codeAndMessage(checkRemote({ url: `${base()}/slow/5000/x.git`, limits: { ...local, totalTimeoutMs: 300 } }));
    expect(r.code).toBe("source_unreachable");
  });

  it("bounds the bytes read from the remote", async () => {
    const http = createGuardedHttp({ ...DEFAULT_TRANSPORT_LIMITS, ...local, maxResponseBytes: 100_000 });
    const res = await http.request({ url: `${base()}/huge/x.git`, method: "GET", headers: {} });
    let read = 0;
    const drain = async () => {
      for await (const part of res.body as AsyncIterable<Uint8Array>) read += part.byteLength;
    };
    await expect(drain()).rejects.toSatisfy((e) => e instanceof GitTransportError && e.kind === "too_large");
    expect(read).toBeLessThanOrEqual(100_000);
  });

  it("the byte cap also bounds a fetch", async () => {
    const r = await codeAndMessage(fetchSnapshot({ url: `${base()}/fixture.git`, limits: { ...local, maxResponseBytes: 2_000 } }));
    expect(r.code).toBe("source_unreachable");
  });

  it("answers a closed port, a non-git server, a slow server and a too-large answer with the same words", async () => {
    // /slow/0/ answers 200 with plain text at once: a web server that is no git server.
    const urls = ["http://127.0.0.1:1/x.git", `${base()}/slow/0/x.git`, `${base()}/slow/5000/x.git`, `${base()}/huge/x.git`];
    const limits = { ...local, connectTimeoutMs: 500, maxResponseBytes: 100_000 };
    const answers = await Promise.all(urls.map((url) => codeAndMessage(checkRemote({ url, limits }))));
    const neutral = answers.map((a, i) => `${a.code}: ${a.message.replace(urls[i], "URL")}`);
    expect(new Set(neutral).size).toBe(1);
    expect(neutral[0]).toMatch(/^source_unreachable: No git repository could be read at URL/);
    // Words that hold for every one of these causes: none is claimed to be a timeout.
    expect(neutral[0]).not.toMatch(/did not answer .* in time/);
  });

  it("says a repository does not exist when the git server answers 404, not that it timed out", async () => {
    const url = `${base()}/no-such-repo.git`;
    const r = await codeAndMessage(checkRemote({ url, limits: local }));
    expect(r.code).toBe("source_unreachable");
    expect(r.message).toMatch(new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} answered HTTP 404: there is no repository at this URL`));
    expect(r.message).not.toMatch(/in time/);
  });

  it("a connection cut mid-pack is reported as an interrupted transfer, not as a timeout", async () => {
    const r = await codeAndMessage(fetchSnapshot({ url: `${base()}/cut/fixture.git`, limits: local }));
    expect(r.code).toBe("source_unreachable");
    expect(r.message).toMatch(/^The transfer from .*\/cut\/fixture\.git was interrupted: the connection was cut after \d+ bytes/);
    expect(r.message).not.toMatch(/in time/);
  });
});
