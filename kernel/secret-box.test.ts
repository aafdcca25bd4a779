import { describe, expect, it } from "vitest";
import { openSecret, sealSecret, SecretBoxError, secretKeyMaterial } from "./secret-box";

describe("secret-box", () => {
  it("round-trips, and never stores the plaintext", async () => {
    const sealed = await sealSecret("k".repeat(32), "repo-token", "hono", "ghp_secret123");
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("ghp_secret123");
    expect(await openSecret("k".repeat(32), "repo-token", "hono", sealed)).toBe("ghp_secret123");
    expect(await sealSecret("k".repeat(32), "repo-token", "hono", "ghp_secret123")).not.toBe(sealed); // fresh IV
  });

  it.each([
    ["another key", "x".repeat(32), "repo-token", "hono"],
    ["another purpose", "k".repeat(32), "webhook-secret", "hono"],
    ["another repo", "k".repeat(32), "repo-token", "other"],
  ])("refuses to open under %s", async (_name, key, purpose, context) => {
    const sealed = await sealSecret("k".repeat(32), "repo-token", "hono", "t");
    await expect(openSecret(key, purpose, context, sealed)).rejects.toThrow(SecretBoxError);
  });

  it("refuses a tampered value", async () => {
    const sealed = await sealSecret("k".repeat(32), "repo-token", "hono", "token");
    // Changes the second-to-last character whatever it is (one in 64 values was left unchanged before).
    const i = sealed.length - 2;
    const flipped = sealed.slice(0, i) + (sealed[i] === "A" ? "B" : "A") + sealed.slice(i + 1);
    await expect(openSecret("k".repeat(32), "repo-token", "hono", flipped)).rejects.toThrow(SecretBoxError);
  });

  it("takes the key from TOKEN_ENCRYPTION_KEY, then SIGNING_SECRET, then the local admin token", () => {
    expect(secretKeyMaterial({ TOKEN_ENCRYPTION_KEY: "a", SIGNING_SECRET: "b" })).toBe("a");
    expect(secretKeyMaterial({ SIGNING_SECRET: "b", ADMIN_TOKEN: "c" })).toBe("b");
    expect(secretKeyMaterial({ ADMIN_TOKEN: "c" })).toBe("derived-from-admin-token:c");
    expect(() => secretKeyMaterial({ AUTH_PROVIDER: "github", ADMIN_TOKEN: "c" })).toThrow(/TOKEN_ENCRYPTION_KEY/);
  });
});
