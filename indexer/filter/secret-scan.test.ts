import { describe, expect, it } from "vitest";
import { scanWithSecretlint } from "./secret-scan";

describe("scanWithSecretlint (in workerd)", () => {
  it("finds an AWS secret access key by its assignment", async () => {
    const key = ["wJalrXUtnFEMI", "K7MDENG", "bPxRfiCYzzzzzzzKEY"].join("/");
    expect(await scanWithSecretlint("a.env", `AWS_SECRET_ACCESS_KEY=${key}\n`)).toMatch(/^secretlint\//);
  });
  it("finds nothing in plain code", async () => {
    expect(await scanWithSecretlint("a.ts", "export const add = (a: number, b: number) => a + b;\n")).toBeNull();
  });
});
