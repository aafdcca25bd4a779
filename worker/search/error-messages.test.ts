import { describe, expect, it } from "vitest";
import { applyMessagePrior, MAX_MESSAGE_LINE_CHARS, messagePhrases, phraseExpression, quotedPhrases } from "./error-messages";
import { MESSAGE_PRIOR } from "./ranking/weights";

describe("messagePhrases", () => {
  it("takes the literal runs of exception messages, without their interpolated values", () => {
    expect(messagePhrases("Traceback (most recent call last):\n  ...\nValueError: Imaginary coordinates are not permitted.")).toEqual([
      "Imaginary coordinates are not permitted",
    ]);
    expect(messagePhrases("TypeError: Expecting sequence of coordinates, not `Mul`")).toEqual(["Expecting sequence of coordinates, not"]);
    expect(messagePhrases("sympy.geometry.exceptions.GeometryError: Don't know how to add 2.0*Point2D(1, 1) and a Point object")).toEqual([
      "Don't know how to add",
      "and a Point object",
    ]);
    expect(messagePhrases("E   astropy.io.ascii.core.InconsistentTableError: Unrecognized QDP line: read serr 1 2")).toEqual(["Unrecognized QDP line"]);
  });

  it("reads Java, C#, JavaScript, PHP and Go shapes", () => {
    expect(messagePhrases('Exception in thread "main" java.lang.IllegalStateException: Expected BEGIN_OBJECT but was STRING at line 1')).toEqual([
      "Expected BEGIN_OBJECT but was STRING at line",
    ]);
    expect(messagePhrases("Unhandled exception. System.InvalidOperationException: The circuit is now open and is not allowing calls.")).toEqual([
      "The circuit is now open and is not allowing calls",
    ]);
    expect(messagePhrases("Uncaught Error: Cookies Max-Age SHOULD NOT be greater than 400 days (34560000 seconds) in duration.")).toEqual([
      "Cookies Max-Age SHOULD NOT be greater than",
    ]);
    expect(messagePhrases("Fatal error: Uncaught RuntimeException: Callable handler does not exist in /app/vendor/x.php:12")).toEqual([
      "Callable handler does not exist",
    ]);
    expect(messagePhrases("panic: handlers are already registered for path '/users/:id'")).toEqual(["handlers are already registered for path"]);
    expect(messagePhrases("Polly.Timeout.TimeoutRejectedException: The operation didn't complete within the allowed timeout of '00:00:02'.")).toEqual([
      "The operation didn't complete within the allowed timeout of",
    ]);
  });

  it("leaves out the runtime's own messages, short runs and prose that only mentions an error", () => {
    expect(messagePhrases("AttributeError: 'Foo' object has no attribute 'bar'")).toEqual([]);
    expect(messagePhrases("TypeError: Cannot read properties of undefined (reading 'length')")).toEqual([]);
    expect(messagePhrases("IndexError: list index out of range")).toEqual([]);
    expect(messagePhrases("panic: assignment to entry in nil map")).toEqual([]);
    expect(messagePhrases("NameError: undefined local variable or method `foo' for main:Object")).toEqual([]);
    expect(messagePhrases("KeyError: 'name'\nValueError: bad value")).toEqual([]);
    expect(messagePhrases("The parser raises a ValueError when the input is empty: that is wrong.")).toEqual([]);
  });

  it("keeps the last exception's runs first (it ended the log), each message's longest first, deduplicated", () => {
    const text = "ValueError: first alpha beta\nValueError: FIRST alpha beta\nRuntimeError: gamma delta epsilon 42 zeta eta theta iota (x) kappa lambda mu";
    expect(messagePhrases(text)).toEqual(["zeta eta theta iota", "gamma delta epsilon", "kappa lambda mu", "FIRST alpha beta"]);
  });

  it("reads the prefixes of logs, Java causes, PHP's log, promises and Node's error codes", () => {
    const want = ["GSON cannot serialize or deserialize"];
    expect(messagePhrases("Caused by: java.lang.IllegalArgumentException: GSON cannot serialize or deserialize java.lang.Class")).toEqual(want);
    expect(
      messagePhrases(
        "2024-05-01 12:00:01,123 ERROR [main] c.g.Gson - java.lang.IllegalArgumentException: GSON cannot serialize or deserialize java.lang.Class",
      ),
    ).toEqual(want);
    expect(messagePhrases("PHP Fatal error:  Uncaught RuntimeException: A middleware must be an object in /app/x.php:3")).toEqual([
      "A middleware must be an object",
    ]);
    expect(messagePhrases("Uncaught (in promise) Error: No default engine was specified and no extension was provided.")).toEqual([
      "No default engine was specified and no extension was provided",
    ]);
    expect(messagePhrases("Error [ERR_HTTP_HEADERS_SENT]: Cannot set headers after they are sent to the client")).toEqual([
      "Cannot set headers after they are sent to the client",
    ]);
  });

  it("unquotes a message Python prints as a repr (KeyError), and drops runs of stop words", () => {
    expect(messagePhrases("KeyError: 'Widget gizmo has no registered serializer'")).toEqual(["Widget gizmo has no registered serializer"]);
    expect(messagePhrases("ValueError: 'nargs' must be 2 (or None) for type <x>, but it was 3.")).toEqual([]);
  });

  it("reads only the start of a very long line", () => {
    expect(messagePhrases(`ValueError: ${"x".repeat(40_000)}`)).toEqual([]);
    expect(messagePhrases(`${"E".repeat(40_000)}x`)).toEqual([]);
    const [run] = messagePhrases(`ValueError: Imaginary coordinates are not permitted ${"yes ".repeat(20_000)}`);
    expect(run.startsWith("Imaginary coordinates are not permitted yes")).toBe(true);
    expect(run.length).toBeLessThan(MAX_MESSAGE_LINE_CHARS);
  });
});

describe("quotedPhrases", () => {
  it("takes double-quoted phrases of three words or more, straight or curly", () => {
    expect(quotedPhrases('where is "Imaginary coordinates are not permitted" raised, and “handlers are already registered”?')).toEqual([
      "Imaginary coordinates are not permitted",
      "handlers are already registered",
    ]);
    expect(quotedPhrases('what does "memo" do with "two words"')).toEqual([]);
  });
});

describe("phraseExpression", () => {
  it("is one FTS5 phrase of the index tokens in the body column", () => {
    expect(phraseExpression("Don't know how to add")).toBe('body : "don t know how to add"');
  });
});

describe("applyMessagePrior", () => {
  it("lifts the chunks of the raising files", () => {
    const c = [
      { chunkId: "a1", f: "r\0a.py", score: 1 },
      { chunkId: "p1", f: "r\0point.py", score: 0.6 },
      { chunkId: "p2", f: "r\0point.py", score: 0.4 },
    ];
    const out = applyMessagePrior(c, new Set(["r\0point.py"]), (x) => x.f);
    expect(out.map((x) => x.chunkId)).toEqual(["p1", "a1", "p2"]);
    expect(out[0].score).toBeCloseTo(0.6 * MESSAGE_PRIOR);
    expect(applyMessagePrior(c, new Set(), (x) => x.f)).toBe(c);
  });
  it("lifts the raising chunk above the other chunks of its file", () => {
    const c = [
      { chunkId: "p1", f: "r\0point.py", score: 0.6 },
      { chunkId: "p2", f: "r\0point.py", score: 0.4 },
    ];
    const out = applyMessagePrior(c, new Set(["r\0point.py"]), (x) => x.f, new Set(["p2"]));
    expect(out.map((x) => x.chunkId)).toEqual(["p2", "p1"]);
    expect(out[0].score).toBeCloseTo(0.4 * MESSAGE_PRIOR * MESSAGE_PRIOR);
  });
});
