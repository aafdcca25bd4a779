import { sign } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import { verifyGitHubSignature, verifyGitLabToken } from "./verify";

// The test vector of GitHub's "Validating webhook deliveries" documentation.
const DOC_SECRET = "It's a Secret to Everybody";
const DOC_PAYLOAD = "Hello, World!";
const DOC_SIGNATURE = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

describe("verifyGitHubSignature", () => {
  it("accepts the documented test vector", async () => {
    expect(await verifyGitHubSignature(DOC_SECRET, DOC_PAYLOAD, DOC_SIGNATURE)).toBe(true);
    expect(await sign(DOC_SECRET, DOC_PAYLOAD)).toBe(DOC_SIGNATURE);
  });

  it.each([
    ["another secret", "It's a Secret to Nobody", DOC_PAYLOAD, DOC_SIGNATURE],
    ["a changed body", DOC_SECRET, "Hello, World?", DOC_SIGNATURE],
    ["a flipped digit", DOC_SECRET, DOC_PAYLOAD, DOC_SIGNATURE.replace(/7$/, "8")],
    ["the sha1 header form", DOC_SECRET, DOC_PAYLOAD, "sha1=01dc10d0c83e72ed246219cdd91669667fe2ca59"],
    ["no prefix", DOC_SECRET, DOC_PAYLOAD, DOC_SIGNATURE.slice(7)],
    ["non-hex", DOC_SECRET, DOC_PAYLOAD, "sha256=" + "z".repeat(64)],
    ["a short digest", DOC_SECRET, DOC_PAYLOAD, DOC_SIGNATURE.slice(0, 40)],
    ["no header", DOC_SECRET, DOC_PAYLOAD, null],
  ])("rejects %s", async (_name, secret, body, signature) => {
    expect(await verifyGitHubSignature(secret, body, signature)).toBe(false);
  });
});

describe("verifyGitLabToken", () => {
  it("accepts the secret and nothing else", async () => {
    expect(await verifyGitLabToken("s3cret-token", "s3cret-token")).toBe(true);
    expect(await verifyGitLabToken("s3cret-token", "s3cret-tokeN")).toBe(false);
    expect(await verifyGitLabToken("s3cret-token", "s3cret")).toBe(false);
    expect(await verifyGitLabToken("s3cret-token", undefined)).toBe(false);
  });
});
