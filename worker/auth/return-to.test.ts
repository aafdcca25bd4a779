import { describe, expect, it } from "vitest";
import { RETURN_TO_MAX_CHARS, safeReturnPath } from "./return-to";

describe("safeReturnPath", () => {
  it("keeps a path on this origin with its query and fragment", () => {
    expect(safeReturnPath("/")).toBe("/");
    expect(safeReturnPath("/?q=parse+signed&repo=hono&lang=typescript")).toBe("/?q=parse+signed&repo=hono&lang=typescript");
    expect(safeReturnPath("/repos#top")).toBe("/repos#top");
  });

  it.each([
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
    "/login?next=/",
    "/logout",
    "/oauth/callback/github",
  ])("refuses %j: back to /", (raw) => {
    expect(safeReturnPath(raw)).toBe("/");
  });

  it("refuses what is not a short string", () => {
    expect(safeReturnPath(undefined)).toBe("/");
    expect(safeReturnPath(["/x"])).toBe("/");
    expect(safeReturnPath(`/?q=${"a".repeat(RETURN_TO_MAX_CHARS)}`)).toBe("/");
  });
});
