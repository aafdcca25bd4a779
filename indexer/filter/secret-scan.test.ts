import { describe, expect, it } from "vitest";
import { scanManyWithSecretlint as scanWithMany, scanWithSecretlint } from "./secret-scan";

describe("scanWithSecretlint (in workerd)", () => {
  it("finds an AWS secret access key by its assignment", async () => {
    const key = ["wJalrXUtnFEMI", "K7MDENG", "bPxRfiCYzzzzzzzKEY"].join("/");
    expect(await scanWithSecretlint("a.env", `AWS_SECRET_ACCESS_KEY=${key}\n`)).toMatch(/^secretlint\//);
  });
  it("finds nothing in plain code", async () => {
    expect(await scanWithSecretlint("a.ts", "export const add = (a: number, b: number) => a + b;\n")).toBeNull();
  });
});

describe("scanManyWithSecretlint", () => {
  const key = ["wJalrXUtnFEMI", "K7MDENG", "bPxRfiCYzzzzzzzKEY"].join("/");
  it("maps each finding to its own file", async () => {
    const files = [
      { path: "a.ts", text: "export const a = 1;\n" },
      { path: "b.ts", text: "export const b = 2;\n" },
      { path: "c.env", text: `AWS_SECRET_ACCESS_KEY=${key}\n` },
      { path: "d.ts", text: "export const d = 4;\n" },
    ];
    const found = await scanWithMany(files);
    expect(found.map((f) => f !== null)).toEqual([false, false, true, false]);
  });
  it("no pattern reaches across the file separator", async () => {
    const found = await scanWithMany([
      { path: "a.env", text: "AWS_SECRET_ACCESS_KEY=" },
      { path: "b.txt", text: key },
    ]);
    expect(found).toEqual([null, null]);
  });
  it("one file's secretlint-disable comment neither hides the next file's secret nor its own", async () => {
    const disable = ["// secretlint", "disable"].join("-");
    const found = await scanWithMany([
      { path: "a.ts", text: `${disable}\nexport const a = 1;\n` },
      { path: "b.env", text: `AWS_SECRET_ACCESS_KEY=${key}\n` },
      { path: "c.env", text: `${disable}\nAWS_SECRET_ACCESS_KEY=${key}\n` },
    ]);
    expect(found.map((f) => f !== null)).toEqual([false, true, true]);
  });
});
