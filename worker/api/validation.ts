/**
 * @module worker/api/validation
 *
 * The one validation path of the REST API. Every route declares its params, query and body as
 * zod schemas (`@hono/zod-openapi`'s `createRoute`); `defaultHook` turns a failed parse into
 * `invalid_input` naming the field, and the helpers here give query strings the types the
 * services' schemas expect (numbers, booleans, comma lists) so one schema describes both.
 */
import type { Hook } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { BodyTooLargeError, readBoundedRequest } from "../../kernel/bounded-body";
import { CodeSearchError } from "../../kernel/errors";
import { issueMessage } from "../../kernel/validation";

/** Where a failing value came from, as the message's fallback field name. */
const TARGET_NAMES: Record<string, string> = { json: "body", query: "query", param: "path", form: "body", header: "header", cookie: "cookie" };

/**
 * The `defaultHook` of every OpenAPIHono app: a failed validation throws `invalid_input` with
 * `field: message` (kernel/validation.ts), which `onApiError` answers as a 400.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one hook serves every app, target and schema
export const defaultHook: Hook<any, any, any, any> = (result) => {
  if (!result.success) throw new CodeSearchError("invalid_input", issueMessage(result.error as z.ZodError, {}, TARGET_NAMES[result.target] ?? "input"));
};

/** A query parameter read as a number: "" or absent is undefined, "abc" fails `inner` (NaN). */
export function queryNumber<S extends z.ZodType>(inner: S) {
  return z.preprocess((v) => (v === undefined || v === "" ? undefined : Number(v)), inner);
}

/** A query parameter read as a boolean: true/1/yes, false/0/no; "" or absent is undefined. */
export function queryBoolean<S extends z.ZodType>(inner: S) {
  return z.preprocess((v) => {
    if (v === undefined || v === "") return undefined;
    if (v === "true" || v === "1" || v === "yes") return true;
    if (v === "false" || v === "0" || v === "no") return false;
    return v;
  }, inner);
}

/** A query parameter read as a comma-separated list (empty items dropped); absent is undefined. */
export function queryList<S extends z.ZodType>(inner: S) {
  return z.preprocess(
    (v) =>
      typeof v === "string"
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    inner,
  );
}

/** A query parameter where "" means absent. */
export function queryOptional<S extends z.ZodType>(inner: S) {
  return z.preprocess((v) => (v === "" ? undefined : v), inner);
}

/**
 * Bytes a JSON request body may have: the largest field any route accepts is a review's diff,
 * 200,000 characters (REVIEW_MAX_DIFF_CHARS), which JSON escaping and multi-byte UTF-8 can make
 * several times larger; 2 MiB covers it with room and keeps one request far below an isolate's
 * 128 MB.
 */
export const JSON_BODY_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Route middleware for JSON bodies that lets the declared body validator see every request as
 * JSON, as the API always has: a missing or non-JSON content-type is read as JSON, an empty
 * body is `{}`, and text that is not JSON is refused with `example` in the message. The body is
 * read through the bounded reader (kernel/bounded-body.ts): past JSON_BODY_MAX_BYTES it is a 413
 * `payload_too_large` and the rest is never read.
 */
export function jsonBody(example: string): MiddlewareHandler {
  return async (c, next) => {
    let text: string;
    try {
      text = new TextDecoder().decode(await readBoundedRequest(c.req.raw, JSON_BODY_MAX_BYTES));
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        throw new CodeSearchError(
          "payload_too_large",
          `body: larger than ${JSON_BODY_MAX_BYTES} bytes; send a smaller request (a diff over 200,000 characters: review fewer files at once)`,
        );
      }
      throw err;
    }
    let value: unknown = {};
    if (text.trim()) {
      try {
        value = JSON.parse(text);
      } catch {
        throw new CodeSearchError("invalid_input", `body: expected a JSON object such as ${example}`);
      }
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set("content-type", "application/json");
    c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, body: JSON.stringify(value) });
    c.req.bodyCache = {}; // the text read above must not stand in for the rewritten body
    await next();
  };
}
