import { describe, expect, it } from "vitest";
import { applyMessagePrior, MESSAGE_PRIOR, messagePhrases, phraseExpression, quotedPhrases } from "./error-messages";

describe("messagePhrases", () => {
  it("takes the literal runs of exception messages, without their interpolated values", () => {
    expect(messagePhrases("Traceback (most recent call last):\n  ...\nValueError: Imaginary coordinates are not permitted.")).toEqual(["Imaginary coordinates are not permitted"]);
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
    expect(messagePhrases("Fatal error: Uncaught RuntimeException: Callable handler does not exist in /app/vendor/x.php:12")).toEqual(["Callable handler does not exist"]);
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

  it("keeps the longest runs first, deduplicated", () => {
    const text = "ValueError: one two three\nValueError: ONE two three\nRuntimeError: alpha beta gamma delta";
    expect(messagePhrases(text)).toEqual(["alpha beta gamma delta", "one two three"]);
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
      { f: "r\0a.py", score: 1 },
      { f: "r\0point.py", score: 0.6 },
    ];
    const out = applyMessagePrior(c, new Set(["r\0point.py"]), (x) => x.f);
    expect(out.map((x) => x.f)).toEqual(["r\0point.py", "r\0a.py"]);
    expect(out[0].score).toBeCloseTo(0.6 * MESSAGE_PRIOR);
    expect(applyMessagePrior(c, new Set(), (x) => x.f)).toBe(c);
  });
});
