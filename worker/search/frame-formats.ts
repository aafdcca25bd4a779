/**
 * @module worker/search/frame-formats
 *
 * The frame formats worker/search/stack-frames.ts reads, one regular expression (and the
 * helper turning its match into a path and function) per language's trace: Python, pytest, V8,
 * Java, Go, Ruby, Rust, native (gdb, sanitizers), .NET and PHP; and the escaped traces of JSON
 * logs. Pure.
 */
export const PY_FRAME_RE = /(?:^|[\s>:])File "([^"\n]+)", line (\d+)(?:, in (\S+))?/;
export const PYTEST_FRAME_RE = /^([\w./\\-]+\.py):(\d+): (?:in (\S+)|[A-Z]\w*(?:Error|Exception|Warning|Exit)\b)/;

/**
 * `at f (path:L:C)` / `at path:L:C` / `at async path:L:C`; the path may be a `file://` URL
 * (`file:///C:/Users/Dev%20One/app.js`) and, inside the parentheses, hold spaces
 * (`C:\Users\Dev One\app.js`); names may be private (`#dispatch`) or carry V8's
 * ` [as alias]`; Node ends an error's last frame with ` {` when its properties (`[cause]`) follow.
 * Groups: name, path, line (parenthesized); path, line (bare).
 */
export const V8_FRAME_RE =
  /^\s*at (?:(?:async |new )?([\w$#.<>[\] ]{1,200}?) \((?:file:\/\/(?:\/(?=[A-Za-z]:))?)?((?:[A-Za-z]:)?[^()\n]{1,1000}?\.\w+):(\d+)(?::\d+)?\)|(?:async )?(?:file:\/\/(?:\/(?=[A-Za-z]:))?)?((?:[A-Za-z]:)?[\w./\\@~+%-]{1,1000}\.\w+):(\d+)(?::\d+)?)(?: \{)?\s*$/;
/** A V8 name's alias (`Layer.handle [as handle_request]`). */
export const V8_ALIAS_RE = /\s*\[as [^\]]{1,200}\]$/;
/** A `file://` path's percent-escapes decoded (`Dev%20One`); the text as written if it is not valid. */
export const decodeFileUrl = (p: string) => {
  if (!/%[0-9A-Fa-f]{2}/.test(p)) return p;
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
};
/** `at pkg.Class.m(File.java:N)`, behind a Java 9+ module or class-loader prefix too (`app//`, `com.foo@1.0/`). */
export const JAVA_FRAME_RE = /^\s*at (?:[\w.$@-]{0,200}\/){0,2}((?:[\w$]+\.)+)([\w$<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)/;
/** Go's `\t/home/u/app/store.go:17 +0x1d`; the module cache writes a capital as `!` and the letter (`!burnt!sushi`). */
export const GO_FRAME_RE = /^\s+((?:[A-Za-z]:)?[\w./\\@~+!-]+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/;
/** The function line above a Go frame: `github.com/gin-gonic/gin.(*Context).MustGet(...)`, `main.main()`; name, then arguments. */
export const GO_FUNC_RE = /^([\w./~!*()-]{1,500}?)\((?:[^()\n]|\([^()\n]*\)){0,2000}\)$/;
/**
 * Ruby `path.rb:12:in 'label'` (backquote-opened before Ruby 3.4), anywhere after a space (a
 * log or RSpec `# ` prefix): `from ` marks an outer frame, `N: from ` one of a Ruby 2.5-2.7
 * reversed trace; text after the closing quote (`: message (Class)`) starts a trace.
 */
export const RUBY_FRAME_RE = /(?:^|\s)(?:(\d{1,6}): )?(from )?((?:[A-Za-z]:)?[\w./\\@~+-]{0,1000}\.\w{1,10}):(\d+):in [`']([^'`\n]{1,300})'(\S)?/;
/** What a Ruby label adds to the method's name: `block (2 levels) in `, `rescue in `, `ensure in `. */
export const RUBY_LABEL_PREFIX_RE = /^(?:(?:block|rescue|ensure)(?: \(\d+ levels\))? in )+/;
/** Rust `panicked at path:L:C:` (1.73+) or `panicked at 'message', path:L:C` (older), the message on this line. */
export const RUST_PANIC_RE = /\bpanicked at (?:'[^\n]{0,2000}', )?((?:[A-Za-z]:)?[\w./\\@~+-]{1,1000}):(\d+):\d+:?\s*$/;
/** Where an older Rust panic's message that ran over lines ends: `right: 2', src/main.rs:2:5`. */
export const RUST_PANIC_END_RE = /', ((?:[A-Za-z]:)?[\w./\\@~+-]{1,1000}):(\d+):\d+\s*$/;
/** Lines an older Rust panic's message may run over before its location. */
export const MAX_PANIC_MESSAGE_LINES = 50;
/** A Rust backtrace's `  12: crate::mod::Type::f` (older: `12: 0x55d1 - crate::mod::f::h0123456789abcdef`); its `at path` follows. */
export const RUST_FRAME_HEAD_RE = /^\s*\d{1,5}: (?:0x[0-9a-fA-F]{1,16} - )?([^\s:][^\n]{0,500}?)(?:::h[0-9a-f]{16})?\s*$/;
/**
 * A sanitizer (ASan, UBSan, MSan, TSan) or gdb frame: `#0 0x7f3a in fn /src/read.c:612:5`,
 * TSan `#0 fn /src/read.c:612:5 (prog+0x4a2b)`, gdb `#1  0x7f3a in fn (r=0x0) at read.c:612`
 * and `#0  fn (r=0x0) at read.c:612`. Groups: address, what precedes the path, path, line, TSan module.
 */
export const NATIVE_FRAME_RE =
  /^\s*#\d{1,5}\s+(0x[0-9a-fA-F]{1,16}\s+in\s+)?(\S[^\n]{0,1000}?)\s((?:[A-Za-z]:)?[\w./\\@~+-]{1,1000}):(\d+)(?::\d+)?(\s+\([^()\s]{1,1000}\+0x[0-9a-fA-F]{1,16}\))?\s*$/;
/** gdb's `#1  0x7f3a in fn (a=1, ` whose arguments run over to the next line. */
export const GDB_FRAME_HEAD_RE = /^\s*#\d{1,5}\s+(?:0x[0-9a-fA-F]{1,16}\s+in\s+)?([^\s(]{1,500}) \(/;
/** That next line: `    len=10) at read.c:612`. */
export const GDB_FRAME_TAIL_RE = /^\s+[^\n]{0,1000}?\) at ((?:[A-Za-z]:)?[\w./\\@~+-]{1,1000}):(\d+)\s*$/;
/**
 * A .NET frame that names its file: `at Ns.Class.Method(Type arg) in C:\src\File.cs:line 42`, or
 * Mono's `at Ns.Class.Method (Type arg) [0x0001c] in /src/File.cs:42`; the path may hold spaces
 * (`C:\Users\Jane Doe\source\...`), so it runs to the `:line N` that ends the line.
 */
export const DOTNET_FRAME_RE = /^\s*at ([^\s(]{1,1000}) ?\([^()]{0,1000}\)(?: \[0x[0-9a-fA-F]{1,16}\])? in (\S.{0,1000}?):(?:line )?(\d+)\s*$/;
/** A PHP file: `.php` (`.php5`), `.phtml`, `.inc`. */
export const PHP_FILE = String.raw`(?:[A-Za-z]:)?[\w./\\@~+-]{1,1000}\.(?:php\d?|phtml|inc)`;
/**
 * A PHP trace line (`#0 /src/Router.php(90): App\Router->match('/')`, `#1 [internal function]:
 * App\{closure}()`, `#2 {main}`), behind a prefix too (Slim's `Trace: #0 ...`). Groups: number,
 * path, line, call; the call of an `[internal function]` line; `{main}`.
 */
export const PHP_FRAME_RE =
  /(?:^|\s)#(\d{1,5}) (?:((?:[A-Za-z]:)?[\w./\\@~+-](?:[\w./\\@~+ -]{0,1000}?[\w./\\@~+-])?\.\w{1,10})\((\d+)\): (\S.{0,1000})|\[internal function\]: (\S.{0,1000})|(\{main\})\s*$)/;
/**
 * Where a PHP error surfaced: `... in /src/Router.php:138` (an uncaught exception, PHP's `Next`
 * one), Monolog's `(RuntimeException(code: 0): msg at /src/Router.php:138)` (Laravel and Symfony
 * logs), Symfony console's `  at /src/Router.php:138`; also Symfony console's frames
 * ` App\Router->match() at /src/Kernel.php:45` (the call before ` at`).
 */
export const PHP_AT_RE = new RegExp(String.raw`(?:^|\s)(in|at) (${PHP_FILE}):(\d+)(?:\)|\s*$)`);
/** `... in /src/Router.php on line 138` (errors, warnings, `thrown in`), Whoops' `in file /src/...`, Symfony logs' `at /src/Router.php line 138`. */
export const PHP_ON_LINE_RE = new RegExp(String.raw`(?:^|\s)(?:(thrown )?in|at) (?:file )?(${PHP_FILE})(?: on)? line (\d+)\b`);
/** Slim's error page and log: `File: /src/Router.php`, its `Line: 138` on the next line. */
export const PHP_FILE_LABEL_RE = new RegExp(String.raw`^\s*File: (${PHP_FILE})\s*$`);
export const PHP_LINE_LABEL_RE = /^\s*Line: (\d+)\s*$/;
/** Where a PHP log goes on with an earlier exception, printed after: Laravel's `[previous exception]`, Symfony console's `Exception trace:`. */
export const PHP_PREVIOUS_RE = /\[previous exception\]|^\s*Exception trace:\s*$/;
/** What a PHP trace line calls, up to its arguments' `(` (PHP 8.4's `{closure:App\A::f():12}` holds parentheses). */
export const PHP_CALLEE_RE = /^(?:[^\s({]|\{[^{}]{0,500}\}){1,500}(?=\()/;
/** Where a Java, Kotlin or Node.js trace goes on with the exception's cause: `Caused by: `, `[cause]: `. */
export const CAUSE_RE = /(?<=^|[\s>\]])(?:Caused by:|\[cause\]:)(?=\s|$)/;
/** Java's `Suppressed: ` exceptions, printed inside a trace; their own causes are indented past it. */
export const SUPPRESSED_RE = /(?<=^|[\s>\]])Suppressed: /;
/** Lines longer than this are not frames (bounds the regexes' work on pasted blobs). */
export const MAX_FRAME_LINE = 2000;

/** Java's frame path: the package of `org.acme.Billing.` (class dropped) joined with the file name. */
export function javaPath(qualified: string, file: string): string {
  const parts = qualified.split(".").filter(Boolean);
  parts.pop(); // the class; the file names it (or its outer class)
  return [...parts, file].join("/");
}

/**
 * A .NET frame's method from its qualified name, as written in source: `Ns.Repo`1.Get` -> `Get`,
 * `Enumerable.First[TSource]` -> `First`; compiler-generated names give the method they were
 * written in: an async or iterator state machine `Ns.Foo.<DoAsync>d__5.MoveNext` -> `DoAsync`, a
 * lambda `<>c.<Main>b__0_0` (`<<Main>b__0_0>d` when async) -> `Main`, top-level statements
 * `<Main>$` -> `Main`; a local function `<Main>g__Parse|0_0` -> `Parse`. Constructors stay `.ctor`.
 */
export function dotnetSymbol(qualified: string): string {
  const q = qualified.replace(/\[[^\]]*\]$/, "");
  const ctor = /\.(\.c?ctor)$/.exec(q);
  if (ctor) return ctor[1];
  const parts = q.split(".");
  let name = parts.pop()!;
  // A compiler-generated type's MoveNext runs the body of the method its name holds.
  if (name === "MoveNext" && parts[parts.length - 1]?.startsWith("<")) name = parts.pop()!;
  const generated = /^<+([^<>]+)>(?:g__([^|]+)\|)?/.exec(name);
  return generated ? (generated[2] ?? generated[1]) : name;
}

/** Forward slashes, runs of separators collapsed (`C:\\Users\\x` copied from a repr -> `C:/Users/x`). */
export const normalizePath = (p: string) => p.replace(/[\\/]+/g, "/");

/**
 * A native frame's function from what precedes its path: gdb's `fn (a=1) at` -> `fn`; a C++
 * signature `ns::Type::f(int, char const*)` -> `ns::Type::f` (the balanced trailing parameter
 * list dropped, scanning once from the end).
 */
export function nativeSymbol(raw: string): string | null {
  let s = raw.trim();
  if (s.endsWith(" at")) s = s.slice(0, s.includes(" (") ? s.indexOf(" (") : -3);
  else if (s.endsWith(")")) {
    let depth = 0;
    for (let i = s.length - 1; i > 0; i--) {
      if (s[i] === ")") depth++;
      else if (s[i] === "(" && --depth === 0) {
        s = s.slice(0, i);
        break;
      }
    }
  }
  return s && s !== "??" ? s : null;
}

/**
 * The function a PHP trace line calls, as written in source: `App\Router->match('/')` -> `match`,
 * `Cache::get('k')` -> `get`, `App\helper()` -> `helper`, a closure `App\{closure}()` ->
 * `{closure}`, PHP 8.4's `{closure:App\Router::match():12}()` -> `match` (the method it was
 * written in, as .NET's lambdas). Null for `{main}` (top-level code).
 */
export function phpSymbol(call: string): string | null {
  const callee = PHP_CALLEE_RE.exec(call)?.[0];
  if (!callee) return null;
  const closure = /\{closure(?::[^{}]*?(\w+)\(\)(?::\d+)?)?\}/.exec(callee);
  if (closure) return closure[1] ?? "{closure}";
  return callee.split(/->|::|\\/).pop() || null;
}

/** A trace inside a JSON string, at two or more of: an escaped line break before a frame (`\\n    at `, `\\n  File "`, `\\n#0 `, `\\n\\tat `). */
export const ESCAPED_TRACE_RE = /\\n(?:\\t|\s)*(?:at |File \\?"|#\d)/g;

/** JSON string escapes of line breaks, tabs, quotes and backslashes undone (`\\n` -> a line break), and the JSON after a frame's closing parenthesis dropped. */
export function unescapeJsonText(text: string): string {
  const lines = text.replace(/\\([nrt"\\/])/g, (_, c: string) => (c === "n" ? "\n" : c === "r" ? "\r" : c === "t" ? "\t" : c));
  // The string's closing quote and the object's closers end its last frame's line (`...:95:5)"}}`).
  return lines.replace(/\)"[\s,}\]]*$/gm, ")");
}
