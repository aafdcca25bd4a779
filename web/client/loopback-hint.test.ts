import { describe, expect, it } from "vitest";
import { loopbackHint } from "./loopback-hint";

describe("loopbackHint", () => {
  it("says what to use instead of a loopback payload URL", () => {
    for (const url of ["http://127.0.0.1:8881/api/webhooks/github?repo=r", "http://localhost:8787/x", "http://[::1]:8787/x", "http://app.localhost/x"])
      expect(loopbackHint(url), url).toMatch(/cannot deliver to it.*tunnel/s);
  });
  it("says nothing for a URL the code host can reach", () => {
    expect(loopbackHint("https://copilot.example.com/api/webhooks/github?repo=r")).toBeNull();
    expect(loopbackHint("http://10.0.0.5:8787/x")).toBeNull();
    expect(loopbackHint("not a url")).toBeNull();
  });
});
