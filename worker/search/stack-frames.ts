/**
 * @module worker/search/stack-frames
 *
 * Reads the stack frames out of a pasted bug report, innermost first (`parseStackFrames`);
 * worker/search/stack-trace matches them to repo files and turns them into a ranking prior. Pure.
 *
 * Formats read (each frame's path as written; its function when the format names one):
 * - Python `File "/site-packages/pkg/mod.py", line 12, in func` (innermost last; chained
 *   tracebacks: the last one first);
 * - pytest `src/pkg/mod.py:12: in func` and the final `src/pkg/mod.py:12: ValueError` (innermost last);
 * - JavaScript (V8) `at func (src/mod.ts:12:5)` / `at src/mod.ts:12:5` (innermost first; Node's
 *   `[cause]:` traces: the last one first);
 * - Java/Kotlin `at org.acme.Billing.total(Billing.java:12)`, the package turned into a path,
 *   behind a module prefix too (`app//`) (innermost first; `Caused by:` traces: the last one,
 *   the root cause, first; `... 12 more` names nothing);
 * - Go `\t/home/u/pkg/mod.go:12 +0x1d` (innermost first);
 * - Ruby `lib/app/base.rb:12:in 'block in compile!'` / `` from lib/x.rb:3:in `foo' ``, Rails and
 *   RSpec (`# ./spec/x_spec.rb:8:in ...`) lines, the function without `block in ` (innermost
 *   first; a cause's trace, which opens with the message, first); Ruby 2.5-2.7's reversed
 *   `2: from t.rb:9:in ...` (innermost last);
 * - Rust `panicked at src/main.rs:10:5:` and the older `panicked at 'msg', src/main.rs:10:5`
 *   (the message may run over lines), then the backtrace's `at ./src/mod.rs:12:5` frames with the
 *   function of the `3: crate::mod::f` line above (innermost first);
 * - C/C++ sanitizers `#0 0x7f3a in fn /src/read.c:612:5` (TSan: `#0 fn /src/read.c:612:5
 *   (prog+0x4a2b)`) and gdb `#1  0x7f3a in fn (r=0x0) at read.c:612` / `#0  fn (r=0x0) at
 *   read.c:612`, arguments run over a line too (innermost first);
 * - .NET `at Acme.Billing.Invoice.Total(Decimal rate) in C:\src\Acme\Invoice.cs:line 42`
 *   (Mono: `at Acme.Invoice.Total (System.Decimal rate) [0x0001c] in /src/Invoice.cs:42`), the
 *   method without its class (`<DoAsync>d__5.MoveNext` -> `DoAsync`, lambda `<Main>b__0_0` ->
 *   `Main`); frames without ` in path:line N` (framework code) are not kept (innermost first;
 *   `ToString()` prints an inner exception's trace, ` ---> ` ... `--- End of inner exception
 *   stack trace ---`, before its wrapper's, so the root cause's already comes first).
 * - PHP `#0 /var/www/src/Router.php(90): App\Router->match('/')` (`getTraceAsString()`, behind a
 *   prefix too: Slim's `Trace: #0 ...`), after the error's location: `Uncaught RuntimeException:
 *   msg in /var/www/src/Router.php:138`, `... in /src/x.php on line 12`, Monolog's `... at
 *   /src/x.php:45)` (Laravel, Symfony logs), Symfony console's `at /src/x.php:45`, Slim's `File:`
 *   and `Line:`. A PHP frame's line is a call of the function its line names, so a frame's
 *   function is the one the next line calls (`{main}`: none; `[internal function]` names no
 *   file); the location's function is the one `#0` calls (innermost first; PHP prints an earlier
 *   exception's trace before the `Next` one's, Laravel's `[previous exception]` and Symfony's
 *   `Exception trace:` after: the root cause's first).
 * Pseudo-paths (`<frozen importlib._bootstrap>`, `<string>`, `(eval)`) are kept as frames but
 * name no file.
 */
import {
  CAUSE_RE,
  decodeFileUrl,
  DOTNET_FRAME_RE,
  dotnetSymbol,
  ESCAPED_TRACE_RE,
  GDB_FRAME_HEAD_RE,
  GDB_FRAME_TAIL_RE,
  GO_FRAME_RE,
  GO_FUNC_RE,
  JAVA_FRAME_RE,
  javaPath,
  MAX_FRAME_LINE,
  MAX_PANIC_MESSAGE_LINES,
  NATIVE_FRAME_RE,
  nativeSymbol,
  normalizePath,
  PHP_AT_RE,
  PHP_FILE_LABEL_RE,
  PHP_FRAME_RE,
  PHP_LINE_LABEL_RE,
  PHP_ON_LINE_RE,
  PHP_PREVIOUS_RE,
  phpSymbol,
  PY_FRAME_RE,
  PYTEST_FRAME_RE,
  RUBY_FRAME_RE,
  RUBY_LABEL_PREFIX_RE,
  RUST_FRAME_HEAD_RE,
  RUST_PANIC_END_RE,
  RUST_PANIC_RE,
  SUPPRESSED_RE,
  unescapeJsonText,
  V8_ALIAS_RE,
  V8_FRAME_RE,
} from "./frame-formats";

/** One stack frame: the file as the trace names it, the line and the function when given. */
export interface StackFrame {
  /** The path as written (forward slashes; may be absolute, or a package path for Java). */
  path: string;
  line: number;
  /** The frame's function (`func`, `Billing.total`), when the format names it. */
  symbol: string | null;
}

/** Most frames kept from one report (a recursion error repeats one frame thousands of times). */
export const MAX_FRAMES = 200;

/**
 * The stack frames of `raw`, innermost first; a trace pasted as a JSON string (a pino or
 * winston log line, `"stack":"Error: x\\n    at f (/app/a.js:1:2)"`) is unescaped first. Python, pytest and Ruby 2.5-2.7 reversed traces
 * list the innermost frame last and are reversed, so of several such traces (Python's chained
 * exceptions) the last one, the one that was raised, comes first. The other formats list the
 * innermost frame first; their traces are read in blocks that each open where a cause's trace
 * begins (Java's `Caused by:`, Node's `[cause]:`, a Ruby trace's first line, which carries the
 * message), and the blocks are returned last first: the root cause, printed last, holds the
 * innermost frame (`... 12 more` lines, frames shared with the enclosing trace, name none).
 * .NET and PHP need no blocks: they print an inner (earlier) exception's trace before its
 * wrapper's; Laravel's `[previous exception]` and Symfony's `Exception trace:` open one. A
 * Rust panic's location is a frame of its own, before its backtrace's. At most MAX_FRAMES
 * frames. Pass the raw text: markup stripping removes Go's `+0x1d4` offsets.
 */
export function parseStackFrames(raw: string): StackFrame[] {
  const text = (raw.match(ESCAPED_TRACE_RE) ?? []).length >= 2 ? unescapeJsonText(raw) : raw;
  const innermostLast: StackFrame[] = [];
  const blocks: StackFrame[][] = [[]];
  const push = (frame: StackFrame, opensBlock = false) => {
    if (opensBlock && blocks[blocks.length - 1].length) blocks.push([]);
    blocks[blocks.length - 1].push(frame);
  };
  /** Column of the outermost open `Suppressed:` (causes indented to it or past it are its own). */
  let suppressedAt = Infinity;
  /** Whether the last Ruby frame was a numbered `N: from` one (a reversed trace, innermost last). */
  let rubyReversed = false;
  let rustSymbol: string | null = null;
  let gdbSymbol: string | null = null;
  /** The function of the Go frame on the next line (GO_FUNC_RE), its last `.` segment. */
  let goSymbol: string | null = null;
  let panicLines = 0;
  /** The last PHP frame read, and the `#N` of the line whose call is its function (-1: Symfony's unnumbered lines, any). */
  let php = null as { frame: StackFrame; next: number } | null; // `as`: phpLocation assigns it too
  /** `path:line` of the PHP error locations read (a closing `thrown in` repeats one). */
  const phpSites = new Set<string>();
  /** Where the last PHP trace's `#0` went and the function it calls: a `thrown in` location not read before goes first. */
  let phpTrace: { block: StackFrame[]; at: number; symbol: string | null } | null = null;
  let phpFile: string | null = null;
  const phpLocation = (path: string, line: string, opensBlock = false) => {
    const frame = { path: normalizePath(path), line: Number(line), symbol: null };
    phpSites.add(`${frame.path}:${frame.line}`);
    push(frame, opensBlock);
    php = { frame, next: 0 };
  };
  for (const line of text.split(/\r?\n/)) {
    const [lastRustSymbol, lastGdbSymbol, lastPhpFile, lastGoSymbol] = [rustSymbol, gdbSymbol, phpFile, goSymbol];
    rustSymbol = gdbSymbol = phpFile = goSymbol = null;
    if (panicLines > 0) panicLines--;
    if (line.length > MAX_FRAME_LINE) continue;
    let m: RegExpExecArray | null;
    if ((m = GO_FUNC_RE.exec(line))) goSymbol = m[1].split(".").pop()?.replace(/[()*]/g, "") || null;
    if ((m = PY_FRAME_RE.exec(line))) innermostLast.push({ path: normalizePath(m[1]), line: Number(m[2]), symbol: m[3] ?? null });
    else if ((m = PYTEST_FRAME_RE.exec(line))) innermostLast.push({ path: normalizePath(m[1]), line: Number(m[2]), symbol: m[3] ?? null });
    else if ((m = JAVA_FRAME_RE.exec(line))) push({ path: javaPath(m[1], m[3]), line: Number(m[4]), symbol: m[2] });
    else if ((m = DOTNET_FRAME_RE.exec(line))) push({ path: normalizePath(m[2]), line: Number(m[3]), symbol: dotnetSymbol(m[1]) });
    else if ((m = PHP_FRAME_RE.exec(line))) {
      const [n, call] = [Number(m[1]), m[4] ?? m[5] ?? null];
      const symbol = call && phpSymbol(call);
      const frame = m[2] ? { path: normalizePath(m[2]), line: Number(m[3]), symbol: null } : null;
      if (n === 0) phpTrace = { block: blocks[blocks.length - 1], at: blocks[blocks.length - 1].length, symbol };
      if (php?.next === 0 && n === 0 && frame?.path === php.frame.path && frame.line === php.frame.line) {
        // A built-in function threw (`PDO->__construct()`): its call is the error's location.
        php.next = 1;
        continue;
      }
      if (php?.next === n) php.frame.symbol = symbol;
      php = frame && { frame, next: n + 1 };
      if (frame) push(frame);
    } else if ((m = PHP_AT_RE.exec(line))) {
      const call = line.slice(0, m.index).trim();
      if (m[1] === "at" && /^\S{1,1000}\(\)$/.test(call)) {
        // Symfony console's ` App\Router->match() at path:N`: a call made at path:N, of the function of the frame above.
        if (php) php.frame.symbol = phpSymbol(call);
        const frame = { path: normalizePath(m[2]), line: Number(m[3]), symbol: null };
        push(frame);
        php = { frame, next: -1 };
      } else phpLocation(m[2], m[3], PHP_PREVIOUS_RE.test(line));
    } else if ((m = PHP_ON_LINE_RE.exec(line))) {
      const [path, at] = [normalizePath(m[2]), Number(m[3])];
      if (phpSites.has(`${path}:${at}`)) continue;
      if (m[1] && phpTrace) {
        // The closing `thrown in` of a trace pasted without its first line: the throw site goes before `#0`.
        phpTrace.block.splice(phpTrace.at, 0, { path, line: at, symbol: phpTrace.symbol });
        phpSites.add(`${path}:${at}`);
      } else phpLocation(path, m[3]);
    } else if ((m = PHP_FILE_LABEL_RE.exec(line))) phpFile = m[1];
    else if (lastPhpFile && (m = PHP_LINE_LABEL_RE.exec(line))) phpLocation(lastPhpFile, m[1]);
    else if (PHP_PREVIOUS_RE.test(line)) {
      if (blocks[blocks.length - 1].length) blocks.push([]);
    } else if ((m = V8_FRAME_RE.exec(line))) {
      const named = m[2] !== undefined;
      push({
        path: normalizePath(decodeFileUrl(named ? m[2] : m[4])),
        line: Number(named ? m[3] : m[5]),
        symbol: m[1]?.replace(V8_ALIAS_RE, "").trim() || lastRustSymbol,
      });
    } else if ((m = GO_FRAME_RE.exec(line))) push({ path: normalizePath(m[1]), line: Number(m[2]), symbol: lastGoSymbol });
    else if ((m = RUBY_FRAME_RE.exec(line))) {
      const frame = { path: normalizePath(m[3]), line: Number(m[4]), symbol: m[5].replace(RUBY_LABEL_PREFIX_RE, "") || null };
      if (m[1] && m[2]) innermostLast.push(frame);
      else if (!m[2] && rubyReversed) innermostLast.push(frame);
      else push(frame, !m[2] && m[6] === ":");
      rubyReversed = Boolean(m[1] && m[2]);
    } else if ((m = RUST_PANIC_RE.exec(line))) {
      push({ path: normalizePath(m[1]), line: Number(m[2]), symbol: null });
      panicLines = 0;
    } else if (panicLines > 0 && (m = RUST_PANIC_END_RE.exec(line))) {
      push({ path: normalizePath(m[1]), line: Number(m[2]), symbol: null });
      panicLines = 0;
    } else if (line.includes("panicked at '")) panicLines = MAX_PANIC_MESSAGE_LINES;
    else if ((m = NATIVE_FRAME_RE.exec(line))) {
      // A `#12 ... path:N` line is a frame only with a sanitizer's address, gdb's `at` or TSan's module.
      if (m[1] || m[5] || m[2].endsWith(" at")) push({ path: normalizePath(m[3]), line: Number(m[4]), symbol: nativeSymbol(m[2]) });
    } else if (lastGdbSymbol && (m = GDB_FRAME_TAIL_RE.exec(line))) push({ path: normalizePath(m[1]), line: Number(m[2]), symbol: lastGdbSymbol });
    else if ((m = CAUSE_RE.exec(line))) {
      // A cause at the column of an open `Suppressed:` or past it is the suppressed exception's.
      if (m.index < suppressedAt) {
        if (blocks[blocks.length - 1].length) blocks.push([]);
        suppressedAt = Infinity;
      }
    } else if ((m = SUPPRESSED_RE.exec(line))) suppressedAt = Math.min(suppressedAt, m.index);
    else if ((m = GDB_FRAME_HEAD_RE.exec(line))) gdbSymbol = m[1];
    else if ((m = RUST_FRAME_HEAD_RE.exec(line))) rustSymbol = m[1];
  }
  return [...innermostLast.reverse(), ...blocks.reverse().flat()].slice(0, MAX_FRAMES);
}

/**
 * A function whose call's arguments did not bind, as a Python `TypeError` names it
 * (signatureCallee): the method's class when the name is qualified (`RST` of `RST.__init__()`,
 * the last segment of `a.B.f()`), or null.
 */
export interface Callee {
  container: string | null;
  /** The function or method as written (`__init__`, `_print_SingularityFunction`). */
  name: string;
}

/**
 * CPython's messages for a call whose arguments do not bind to the callee's parameters
 * (CPython's Python/ceval.c: "got an unexpected keyword argument", "got multiple values
 * for argument", "missing N required positional argument(s)", "takes N positional arguments but
 * M were given", "got some positional-only arguments passed as keyword arguments"), behind a
 * log or pytest prefix (`E   TypeError: ...`) too. Python 3.10 on names the callee by its
 * qualified name (`RST.__init__()`), earlier versions by its name; a local function's
 * (`f.<locals>.g()`) names no definition to find and is not read. Groups: container, name.
 */
const SIGNATURE_ERROR_RE =
  /(?:^|[\s>:])TypeError: (?:((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\(\) (?:got an unexpected keyword argument|got multiple values for argument|got some positional-only arguments passed as keyword arguments|missing \d+ required (?:positional|keyword-only) arguments?|takes (?:from \d+ to )?\d+ positional arguments? but)\b/gm;

/**
 * The callee of the last Python `TypeError` in `raw` saying a call's arguments did not bind
 * (SIGNATURE_ERROR_RE), or null. Binding fails before the callee runs, so its traceback has no
 * frame for it: the innermost frame is the caller, while the message names the function whose
 * parameters the call did not fit, and a report about a keyword it should accept
 * (`RST.__init__() got an unexpected keyword argument 'header_rows'`) is fixed there. A special
 * method without its class (`__init__()`, as Python 3.9 and earlier write it) names none.
 */
export function signatureCallee(raw: string): Callee | null {
  let last: RegExpExecArray | null = null;
  for (const m of raw.matchAll(SIGNATURE_ERROR_RE)) last = m;
  // Before Python 3.10 the message has no class: `__init__()` then names every class's.
  if (!last || (!last[1] && /^__\w+__$/.test(last[2]))) return null;
  return { container: last[1]?.split(".").pop() ?? null, name: last[2] };
}
