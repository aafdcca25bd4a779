import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issueMessage } from "./validation";

/** The message for `value` parsed by `schema` (which must fail). */
function messageFor(schema: z.ZodType, value: unknown, names: Record<string, string> = {}): string {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected the parse to fail");
  return issueMessage(r.error, names);
}

describe("issueMessage", () => {
  it("says a wrong type in words, not zod's `expected number, received NaN`", () => {
    const schema = z.object({ k: z.number().int(), include_tests: z.boolean().optional(), repos: z.array(z.string()).optional() });
    expect(messageFor(schema, { k: NaN })).toBe("k: expected a number");
    expect(messageFor(schema, { k: 1.5 })).toBe("k: expected a whole number");
    expect(messageFor(schema, { k: 1, include_tests: "maybe" })).toBe("include_tests: expected true or false");
    expect(messageFor(schema, { k: 1, repos: "a" })).toBe('repos: expected a JSON array such as ["a", "b"]');
    expect(messageFor(schema, {})).toBe("k: required (a number)");
    expect(messageFor(z.object({ url: z.string() }), { url: null })).toBe("url: expected a string");
  });

  it("names the field as the caller called it and keeps other messages as zod words them", () => {
    const schema = z.object({ start_line: z.number().min(1) });
    expect(messageFor(schema, { start_line: 0 }, { start_line: "start" })).toBe("start: Too small: expected number to be >=1");
    expect(messageFor(schema, { start_line: "x" }, { start_line: "start" })).toBe("start: expected a number");
  });
});
