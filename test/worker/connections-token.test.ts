/**
 * A connection's token goes only to its own git host (issue 43, Low): the fake GitHub API
 * (test/code-host-server.ts) lists two private repositories whose git server wants the token,
 * one on the API's origin (proxied to the loopback git server) and one on another origin (the
 * git server itself, another port). The first indexes with the token; the second is registered
 * without it, so its fetch is refused by the git server, and the token never reached it.
 */
import { describe, expect, inject, it } from "vitest";
import { connectionGitOrigin } from "../../worker/connections/sync";
import { api } from "../helpers";
import { waitForJob } from "./ingest-helpers";
import { createUpstream } from "./upstream";

const host = () => inject("codeHostUrl");
const TOKEN = "ghp_connection_origin_token_0043";

async function ctl(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${host()}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
}

describe("the connection token and clone URLs on other origins", () => {
  it("sends the token to a clone URL on the connection's host only", async () => {
    await ctl("/tokens", { token: TOKEN, login: "tokenorg-bot" });
    await ctl("/git-upstream", { url: inject("gitServerUrl") });
    const auth = { username: "x-access-token", password: TOKEN };
    const home = await createUpstream("gh-tokenorg-home", auth);
    const foreign = await createUpstream("gh-tokenorg-foreign", auth);
    expect(new URL(foreign.url).origin).not.toBe(new URL(host()).origin);
    await ctl("/github/owners/tokenorg", {
      type: "Organization",
      repos: [
        { id: 4341, name: "home", clone_url: `${host()}/git/gh-tokenorg-home.git`, private: true },
        { id: 4342, name: "foreign", clone_url: foreign.url, private: true },
      ],
    });
    const res = await api("/api/connections", { method: "POST", json: { provider: "github", owner: "tokenorg", token: TOKEN, baseUrl: `${host()}/github` } });
    const json = (await res.json()) as { sync: { registered: string[] } };
    expect(res.status, JSON.stringify(json)).toBe(201);
    expect([...json.sync.registered].sort()).toEqual(["tokenorg-foreign", "tokenorg-home"]);

    const ok = await waitForJob("tokenorg-home");
    expect(ok.status, ok.lastError ?? "").toBe("ready");
    expect(ok.snapshot?.commit).toBe(home.head);
    // Registered without the token: the git server, which wants it, refuses the fetch.
    const refused = await waitForJob("tokenorg-foreign");
    expect(refused.status).toBe("failed");
    expect(refused.snapshot).toBeNull();
    expect(refused.lastError ?? "").toMatch(/401|auth|credential|token/i);
  });

  it("takes github.com for the GitHub API and the API's own origin otherwise", () => {
    expect(connectionGitOrigin({ provider: "github", base_url: "https://api.github.com" })).toBe("https://github.com");
    expect(connectionGitOrigin({ provider: "github", base_url: "https://ghe.example.com/api/v3" })).toBe("https://ghe.example.com");
    expect(connectionGitOrigin({ provider: "gitlab", base_url: "https://gitlab.example.com:8443" })).toBe("https://gitlab.example.com:8443");
  });
});
