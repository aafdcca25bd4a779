import { describe, expect, it } from "vitest";
import { parseQuery } from "./query";
import { parseStackFrames, signatureCallee, type StackFrame } from "./stack-frames";

/** `path:line symbol`, one per frame: tables of frames read at a glance. */
const brief = (frames: StackFrame[]) => frames.map((f) => `${f.path}:${f.line} ${f.symbol}`);

describe("parseStackFrames", () => {
  it("reads a Python traceback innermost first, behind a log prefix too", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "<string>", line 1, in <module>',
      'INTERNALERROR>   File "/usr/lib/python3.8/site-packages/_pytest/main.py", line 191, in wrap_session',
      '  File "C:\\Users\\e\\sympy\\core\\numbers.py", line 1045, in __new__',
      "    num[1] = long(num[1], 16)",
      "ValueError: invalid literal",
    ].join("\n");
    expect(parseStackFrames(text)).toEqual([
      { path: "C:/Users/e/sympy/core/numbers.py", line: 1045, symbol: "__new__" },
      { path: "/usr/lib/python3.8/site-packages/_pytest/main.py", line: 191, symbol: "wrap_session" },
      { path: "<string>", line: 1, symbol: "<module>" },
    ]);
  });

  it("reads pytest, V8, Java and Go frames", () => {
    const pytest = "src/_pytest/python.py:12: in collect\n    x = 1\nsrc/_pytest/nodes.py:40: ValueError";
    expect(parseStackFrames(pytest).map((f) => `${f.path}:${f.line}:${f.symbol}`)).toEqual([
      "src/_pytest/nodes.py:40:null",
      "src/_pytest/python.py:12:collect",
    ]);
    const v8 = "Error: boom\n    at compose (/app/node_modules/hono/dist/compose.js:30:11)\n    at /app/src/index.ts:4:3";
    expect(parseStackFrames(v8)).toEqual([
      { path: "/app/node_modules/hono/dist/compose.js", line: 30, symbol: "compose" },
      { path: "/app/src/index.ts", line: 4, symbol: null },
    ]);
    const java = "java.lang.IllegalStateException: no rate\n\tat org.acme.billing.Invoice.total(Invoice.java:42)";
    expect(parseStackFrames(java)).toEqual([{ path: "org/acme/billing/Invoice.java", line: 42, symbol: "total" }]);
    const go = "panic: nil map\n\ngoroutine 1 [running]:\nmain.store(...)\n\t/home/u/app/store/map.go:17 +0x1d";
    expect(parseStackFrames(go)).toEqual([{ path: "/home/u/app/store/map.go", line: 17, symbol: "store" }]);
    const esm = "    at Hono.#dispatch (file:///home/me/app/src/hono-base.ts:407:20)";
    expect(parseStackFrames(esm)).toEqual([{ path: "/home/me/app/src/hono-base.ts", line: 407, symbol: "Hono.#dispatch" }]);
    const escaped = '  File "C:\\\\Users\\\\me\\\\_pytest\\\\terminal.py", line 3, in main';
    expect(parseStackFrames(escaped)[0].path).toBe("C:/Users/me/_pytest/terminal.py");
  });

  it("reads Go frames of a whole report, offsets and all", () => {
    const report =
      "Export panics on an empty order list\nRunning the migration panics.\n```\npanic: runtime error\n\ngoroutine 1 [running]:\nmain.RunMigrate()\n\t/src/app/cli/cmd/migrate.go:52 +0x1d4\n```";
    expect(parseQuery(report).frames).toEqual([{ path: "/src/app/cli/cmd/migrate.go", line: 52, symbol: "RunMigrate" }]);
  });

  it("reads frames in the Go module cache, the Cargo registry and Ruby gems as written", () => {
    const go = "goroutine 1 [running]:\nmain.load()\n\t/root/go/pkg/mod/github.com/!burnt!sushi/toml@v1.3.2/decode.go:163 +0x2f";
    expect(brief(parseStackFrames(go))).toEqual(["/root/go/pkg/mod/github.com/!burnt!sushi/toml@v1.3.2/decode.go:163 load"]);
    const rust = [
      "   4: serde_json::de::from_str",
      "             at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/src/de.rs:2676:5",
    ].join("\n");
    expect(brief(parseStackFrames(rust))).toEqual([
      "/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/src/de.rs:2676 serde_json::de::from_str",
    ]);
    const ruby = "/usr/local/bundle/gems/rack-2.2.3/lib/rack/builder.rb:244:in `call': boom (RuntimeError)";
    expect(brief(parseStackFrames(ruby))).toEqual(["/usr/local/bundle/gems/rack-2.2.3/lib/rack/builder.rb:244 call"]);
  });

  it("puts the last of chained Python tracebacks first", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "/app/pkg/io.py", line 5, in read',
      "KeyError: 'a'",
      "",
      "During handling of the above exception, another exception occurred:",
      "",
      "Traceback (most recent call last):",
      '  File "/app/pkg/cli.py", line 9, in main',
      '  File "/app/pkg/config.py", line 30, in load',
      "ValueError: bad config",
    ].join("\n");
    expect(brief(parseStackFrames(text))).toEqual(["/app/pkg/config.py:30 load", "/app/pkg/cli.py:9 main", "/app/pkg/io.py:5 read"]);
  });

  it("reads a Java cause chain root cause first, each trace innermost first", () => {
    const text = [
      "com.google.gson.JsonSyntaxException: java.lang.IllegalStateException: Expected BEGIN_OBJECT but was STRING",
      "\tat com.google.gson.internal.bind.ReflectiveTypeAdapterFactory$Adapter.read(ReflectiveTypeAdapterFactory.java:397)",
      "\tat app//com.acme.Main.main(Main.java:10)",
      "Caused by: java.lang.RuntimeException: wrapped",
      "\tat com.acme.Codec.decode(Codec.java:20)",
      "\t... 3 more",
      "Caused by: java.lang.IllegalStateException: Expected BEGIN_OBJECT but was STRING",
      "\tat com.google.gson.stream.JsonReader.beginObject(JsonReader.java:507)",
      "\tat com.google.gson.internal.bind.ReflectiveTypeAdapterFactory$Adapter.read(ReflectiveTypeAdapterFactory.java:386)",
      "\t... 12 more",
    ].join("\n");
    expect(brief(parseStackFrames(text))).toEqual([
      "com/google/gson/stream/JsonReader.java:507 beginObject",
      "com/google/gson/internal/bind/ReflectiveTypeAdapterFactory.java:386 read",
      "com/acme/Codec.java:20 decode",
      "com/google/gson/internal/bind/ReflectiveTypeAdapterFactory.java:397 read",
      "com/acme/Main.java:10 main",
    ]);
  });

  it("keeps a suppressed exception's cause in its trace, and reads Node's [cause]", () => {
    const java = [
      "java.io.IOException: close failed",
      "\tat com.acme.Store.close(Store.java:40)",
      "\tSuppressed: java.lang.IllegalStateException: flush",
      "\t\tat com.acme.Store.flush(Store.java:55)",
      "\tCaused by: java.io.EOFException",
      "\t\tat com.acme.Log.write(Log.java:7)",
      "Caused by: java.net.SocketException: reset",
      "\tat com.acme.Net.read(Net.java:12)",
    ].join("\n");
    expect(brief(parseStackFrames(java))).toEqual([
      "com/acme/Net.java:12 read",
      "com/acme/Store.java:40 close",
      "com/acme/Store.java:55 flush",
      "com/acme/Log.java:7 write",
    ]);
    const node = "Error: load failed\n    at load (/app/src/config.ts:9:11) {\n  [cause]: Error: ENOENT\n      at readFile (/app/src/fs.ts:3:5)\n}";
    expect(brief(parseStackFrames(node))).toEqual(["/app/src/fs.ts:3 readFile", "/app/src/config.ts:9 load"]);
  });

  it("reads Ruby backtraces in both quote styles, Rails and RSpec lines, and Ruby 2.5's reversed ones", () => {
    const ruby34 = [
      "/usr/lib/ruby/gems/3.4.0/gems/sinatra-4.1.0/lib/sinatra/base.rb:1803:in 'block in Sinatra::Base.compile!': undefined method 'x' for nil (NoMethodError)",
      "\tfrom /home/u/app/lib/router.rb:12:in `foo'",
      "\tfrom /home/u/app/config.ru:3:in 'block (2 levels) in <main>'",
    ].join("\n");
    expect(brief(parseStackFrames(ruby34))).toEqual([
      "/usr/lib/ruby/gems/3.4.0/gems/sinatra-4.1.0/lib/sinatra/base.rb:1803 Sinatra::Base.compile!",
      "/home/u/app/lib/router.rb:12 foo",
      "/home/u/app/config.ru:3 <main>",
    ]);
    const rails = "NoMethodError (undefined method `name' for nil):\n\napp/models/user.rb:12:in 'User#save'\napp/controllers/users_controller.rb:5:in `create'";
    expect(brief(parseStackFrames(rails))).toEqual(["app/models/user.rb:12 User#save", "app/controllers/users_controller.rb:5 create"]);
    const rspec = "     # ./lib/sinatra/base.rb:1803:in `block in compile!'\n     # ./spec/routing_spec.rb:8:in `block (2 levels) in <top (required)>'";
    expect(brief(parseStackFrames(rspec))).toEqual(["./lib/sinatra/base.rb:1803 compile!", "./spec/routing_spec.rb:8 <top (required)>"]);
    const reversed = "Traceback (most recent call last):\n\t2: from t.rb:9:in `<main>'\n\t1: from t.rb:5:in `bar'\nt.rb:2:in `foo': boom (RuntimeError)";
    expect(brief(parseStackFrames(reversed))).toEqual(["t.rb:2 foo", "t.rb:5 bar", "t.rb:9 <main>"]);
  });

  it("reads a Ruby cause chain root cause first", () => {
    const text = [
      "app/services/sync.rb:20:in 'rescue in Sync#run': sync failed (Sync::Error)",
      "\tfrom app/services/sync.rb:15:in 'Sync#run'",
      "app/clients/api.rb:7:in 'Api#get': timeout (Net::ReadTimeout)",
      "\tfrom app/services/sync.rb:16:in 'Sync#run'",
    ].join("\n");
    expect(brief(parseStackFrames(text))).toEqual([
      "app/clients/api.rb:7 Api#get",
      "app/services/sync.rb:16 Sync#run",
      "app/services/sync.rb:20 Sync#run",
      "app/services/sync.rb:15 Sync#run",
    ]);
  });

  it("reads a Rust panic's location before its backtrace, the backtrace's functions too", () => {
    const text = [
      "thread 'main' panicked at crates/searcher/src/line_buffer.rs:415:9:",
      "attempt to subtract with overflow",
      "stack backtrace:",
      "   0: rust_begin_unwind",
      "             at /rustc/90b35a62/library/std/src/panicking.rs:645:5",
      "   1: grep_searcher::line_buffer::LineBuffer::fill",
      "             at ./crates/searcher/src/line_buffer.rs:415:9",
      "   2: 0x55d1c2 - grep::main::h0123456789abcdef",
      "             at ./crates/core/main.rs:40:5",
    ].join("\n");
    expect(brief(parseStackFrames(text))).toEqual([
      "crates/searcher/src/line_buffer.rs:415 null",
      "/rustc/90b35a62/library/std/src/panicking.rs:645 rust_begin_unwind",
      "./crates/searcher/src/line_buffer.rs:415 grep_searcher::line_buffer::LineBuffer::fill",
      "./crates/core/main.rs:40 grep::main",
    ]);
    expect(brief(parseStackFrames("thread 'main' panicked at 'index out of bounds: the len is 3', src/main.rs:10:5"))).toEqual(["src/main.rs:10 null"]);
    const multiline =
      "thread 'main' panicked at 'assertion failed: `(left == right)`\n  left: `1`,\n right: `2`', src/lib.rs:2:5\nnote: run with `RUST_BACKTRACE=1`";
    expect(brief(parseStackFrames(multiline))).toEqual(["src/lib.rs:2 null"]);
  });

  it("reads sanitizer and gdb frames, and no numbered line without an address, gdb's `at` or a module", () => {
    const asan = [
      "==4711==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010",
      "    #0 0x7f3a12c4 in redisReaderFeed /home/u/hiredis/read.c:612",
      "    #1 0x4f3a in std::vector<int, std::allocator<int> >::at(unsigned long) /src/vec.cc:88:5",
      "    #2 0x7f3a in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x29d8f)",
      "    #3 worker_run /src/pool.c:40:3 (prog+0x4a2b8e)",
    ].join("\n");
    expect(brief(parseStackFrames(asan))).toEqual([
      "/home/u/hiredis/read.c:612 redisReaderFeed",
      "/src/vec.cc:88 std::vector<int, std::allocator<int> >::at",
      "/src/pool.c:40 worker_run",
    ]);
    const gdb = [
      "#0  redisBufferRead (c=0x0) at hiredis.c:950",
      "#1  0x00007ffff7a4e1b2 in redisProcessCallbacks (ac=0x5555) at /path/async.c:612",
      '#2  0x0000555555555189 in redisAsyncRead (ac=0x5555, buf=0x7ffe "abc",',
      "    len=10) at /path/async.c:700",
      "#3  0x00007ffff7829d90 in __libc_start_call_main () from /lib/x86_64-linux-gnu/libc.so.6",
      "#4  0x0000555555555189 in ?? ()",
    ].join("\n");
    expect(brief(parseStackFrames(gdb))).toEqual([
      "hiredis.c:950 redisBufferRead",
      "/path/async.c:612 redisProcessCallbacks",
      "/path/async.c:700 redisAsyncRead",
    ]);
    expect(parseStackFrames("Fixed in two PRs:\n#12 fixed in src/foo.c:12\n#13 reverted src/foo.c:12")).toEqual([]);
  });

  it("reads .NET frames with Windows and Unix paths, async and lambda frames, and skips frames without a file", () => {
    const text = [
      "Unhandled exception. System.InvalidOperationException: Sequence contains no elements",
      "   at System.Linq.ThrowHelper.ThrowNoElementsException()",
      "   at System.Linq.Enumerable.First[TSource](IEnumerable`1 source)",
      "   at Acme.Billing.InvoiceService.GetLatest(Int32 customerId) in C:\\src\\Acme.Billing\\InvoiceService.cs:line 42",
      "   at Acme.Billing.InvoiceService.<TotalAsync>d__5.MoveNext() in C:\\src\\Acme.Billing\\InvoiceService.cs:line 57",
      "--- End of stack trace from previous location ---",
      "   at System.Runtime.CompilerServices.TaskAwaiter.HandleNonSuccessAndDebuggerNotification(Task task)",
      "   at Acme.Billing.Repository`1.Find[TKey](TKey id) in C:\\Users\\Jane Doe\\source\\repos\\Acme\\Acme.Billing\\Repository.cs:line 88",
      "   at Acme.Api.Program.<>c.<<Main>b__0_0>d.MoveNext() in /home/u/src/Acme.Api/Program.cs:line 18",
      "   at Acme.Api.Program.<>c__DisplayClass0_0.<Main>b__1(HttpContext ctx) in /home/u/src/Acme.Api/Program.cs:line 24",
      "   at Acme.Api.Program.<Main>$(String[] args) in /home/u/src/Acme.Api/Program.cs:line 30",
      "   at Acme.Api.Program.<Main>(String[] args)",
    ].join("\r\n");
    expect(brief(parseStackFrames(text))).toEqual([
      "C:/src/Acme.Billing/InvoiceService.cs:42 GetLatest",
      "C:/src/Acme.Billing/InvoiceService.cs:57 TotalAsync",
      "C:/Users/Jane Doe/source/repos/Acme/Acme.Billing/Repository.cs:88 Find",
      "/home/u/src/Acme.Api/Program.cs:18 Main",
      "/home/u/src/Acme.Api/Program.cs:24 Main",
      "/home/u/src/Acme.Api/Program.cs:30 Main",
    ]);
    const framework =
      "System.ArgumentNullException: Value cannot be null. (Parameter 'source')\n   at System.Linq.ThrowHelper.ThrowArgumentNullException(ExceptionArgument argument)\n   at System.Linq.Enumerable.Count[TSource](IEnumerable`1 source)";
    expect(parseStackFrames(framework)).toEqual([]);
  });

  it("reads a .NET inner exception chain root cause first, and Mono frames", () => {
    const text = [
      "System.InvalidOperationException: Could not load order 7",
      " ---> Acme.Data.RepositoryException: Query failed",
      " ---> System.Collections.Generic.KeyNotFoundException: The given key 'o7' was not present in the dictionary.",
      "   at System.Collections.Generic.Dictionary`2.get_Item(TKey key)",
      "   at Acme.Data.OrderCache.Get(String key) in /src/Acme.Data/OrderCache.cs:line 31",
      "   --- End of inner exception stack trace ---",
      "   at Acme.Data.OrderRepository.Find(Int32 id) in /src/Acme.Data/OrderRepository.cs:line 64",
      "   --- End of inner exception stack trace ---",
      "   at Acme.Orders.OrderService..ctor(IOrderRepository repo) in /src/Acme.Orders/OrderService.cs:line 12",
      "   at Acme.Orders.Worker.<Run>g__LoadOne|3_0(Int32 id) in /src/Acme.Orders/Worker.cs:line 40",
    ].join("\n");
    expect(brief(parseStackFrames(text))).toEqual([
      "/src/Acme.Data/OrderCache.cs:31 Get",
      "/src/Acme.Data/OrderRepository.cs:64 Find",
      "/src/Acme.Orders/OrderService.cs:12 .ctor",
      "/src/Acme.Orders/Worker.cs:40 LoadOne",
    ]);
    const mono = [
      "NullReferenceException: Object reference not set to an instance of an object",
      "  at Acme.Game.Player.Move (System.Single dx) [0x0000c] in /Users/dev/Acme/Assets/Scripts/Player.cs:27 ",
      "  at Acme.Game.Loop.Tick () [0x00001] in <filename unknown>:0 ",
      "  at (wrapper managed-to-native) UnityEngine.Object.Destroy(UnityEngine.Object)",
    ].join("\n");
    expect(brief(parseStackFrames(mono))).toEqual(["/Users/dev/Acme/Assets/Scripts/Player.cs:27 Move", "<filename unknown>:0 Tick"]);
  });

  it("reads a PHP fatal error innermost first: its location, then each frame with the function its line is in", () => {
    const text = [
      "PHP Fatal error:  Uncaught RuntimeException: Callable App\\Controller\\UserController::show() does not exist in /var/www/vendor/slim/slim/Slim/CallableResolver.php:138",
      "Stack trace:",
      "#0 /var/www/vendor/slim/slim/Slim/CallableResolver.php(90): Slim\\CallableResolver->resolveSlimNotation('App\\\\Controller\\\\...')",
      "#1 /var/www/vendor/slim/slim/Slim/CallableResolver.php(63): Slim\\CallableResolver->resolveByPredicate('App\\\\Controller\\\\...', Array, 'handle')",
      "#2 /var/www/vendor/slim/slim/Slim/Routing/Route.php(340): Slim\\CallableResolver->resolveRoute('App\\\\Controller\\\\...')",
      "#3 [internal function]: Slim\\Routing\\Route->handle(Object(Nyholm\\Psr7\\ServerRequest))",
      "#4 /var/www/src/Support/Pipeline.php(31): call_user_func(Array, Object(Nyholm\\Psr7\\ServerRequest))",
      "#5 /var/www/src/Support/Pipeline.php(12): App\\Support\\Pipeline::App\\Support\\{closure}(Object(Nyholm\\Psr7\\ServerRequest))",
      "#6 /var/www/public/index.php(24): App\\Support\\Pipeline::run()",
      "#7 {main}",
      "  thrown in /var/www/vendor/slim/slim/Slim/CallableResolver.php on line 138",
    ].join("\n");
    expect(brief(parseStackFrames(text))).toEqual([
      "/var/www/vendor/slim/slim/Slim/CallableResolver.php:138 resolveSlimNotation",
      "/var/www/vendor/slim/slim/Slim/CallableResolver.php:90 resolveByPredicate",
      "/var/www/vendor/slim/slim/Slim/CallableResolver.php:63 resolveRoute",
      "/var/www/vendor/slim/slim/Slim/Routing/Route.php:340 handle",
      "/var/www/src/Support/Pipeline.php:31 {closure}",
      "/var/www/src/Support/Pipeline.php:12 run",
      "/var/www/public/index.php:24 null",
    ]);
  });

  it("reads PHP 8.4 closures, Windows paths, a Slim error page and a trace pasted without its first line", () => {
    const closures = [
      "Fatal error: Uncaught TypeError: App\\Cart::add(): Argument #1 ($qty) must be of type int, string given in C:\\xampp\\htdocs\\shop\\src\\Cart.php:17",
      "Stack trace:",
      "#0 C:\\xampp\\htdocs\\shop\\src\\Cart.php(40): App\\Cart->add('2')",
      "#1 [internal function]: {closure:App\\Cart::fill():39}(Array)",
      "#2 C:\\xampp\\htdocs\\shop\\src\\Cart.php(39): array_map(Object(Closure), Array)",
      "#3 C:\\xampp\\htdocs\\shop\\index.php(8): App\\Cart::fill(Array)",
      "#4 {main}",
    ].join("\r\n");
    expect(brief(parseStackFrames(closures))).toEqual([
      "C:/xampp/htdocs/shop/src/Cart.php:17 add",
      "C:/xampp/htdocs/shop/src/Cart.php:40 fill",
      "C:/xampp/htdocs/shop/src/Cart.php:39 fill",
      "C:/xampp/htdocs/shop/index.php:8 null",
    ]);
    const slim = [
      "[2025-03-02 10:14:07] app.ERROR: Request body media type parser return value must be an array, an object, or null",
      "Type: RuntimeException",
      "File: /var/www/html/vendor/slim/slim/Slim/Middleware/BodyParsingMiddleware.php",
      "Line: 158",
      "Trace: #0 /var/www/html/vendor/slim/slim/Slim/Middleware/BodyParsingMiddleware.php(60): Slim\\Middleware\\BodyParsingMiddleware->parseBody(Object(Slim\\Psr7\\Request))",
      "#1 /var/www/html/vendor/slim/slim/Slim/MiddlewareDispatcher.php(121): Slim\\Middleware\\BodyParsingMiddleware->process(Object(Slim\\Psr7\\Request), Object(Slim\\Routing\\RouteRunner))",
      "#2 /var/www/html/vendor/slim/slim/Slim/MiddlewareDispatcher.php(65): Psr\\Http\\Server\\RequestHandlerInterface@anonymous->handle(Object(Slim\\Psr7\\Request))",
      "#3 {main}",
    ].join("\n");
    expect(brief(parseStackFrames(slim))).toEqual([
      "/var/www/html/vendor/slim/slim/Slim/Middleware/BodyParsingMiddleware.php:158 parseBody",
      "/var/www/html/vendor/slim/slim/Slim/Middleware/BodyParsingMiddleware.php:60 process",
      "/var/www/html/vendor/slim/slim/Slim/MiddlewareDispatcher.php:121 handle",
      "/var/www/html/vendor/slim/slim/Slim/MiddlewareDispatcher.php:65 null",
    ]);
    const headless = "Stack trace:\n#0 /app/src/Db.php(12): App\\Db::connect()\n#1 {main}\n  thrown in /app/src/Db.php on line 30";
    expect(brief(parseStackFrames(headless))).toEqual(["/app/src/Db.php:30 connect", "/app/src/Db.php:12 null"]);
    expect(brief(parseStackFrames("PHP Warning:  Undefined variable $total in /app/src/Cart.php on line 52"))).toEqual(["/app/src/Cart.php:52 null"]);
  });

  it("reads PHP exception chains root cause first: PHP's Next, Laravel's [previous exception]", () => {
    const next = [
      "PHP Fatal error:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /app/src/Db.php:20",
      "Stack trace:",
      "#0 /app/src/Db.php(20): PDO->__construct('mysql:host=db', 'root', 'secret')",
      "#1 /app/src/Repo.php(11): App\\Db->connect()",
      "#2 {main}",
      "",
      "Next App\\StorageException: Cannot reach the database in /app/src/Repo.php:14",
      "Stack trace:",
      "#0 /app/index.php(5): App\\Repo->find(7)",
      "#1 {main}",
      "  thrown in /app/src/Repo.php on line 14",
    ].join("\n");
    expect(brief(parseStackFrames(next))).toEqual([
      "/app/src/Db.php:20 connect",
      "/app/src/Repo.php:11 null",
      "/app/src/Repo.php:14 find",
      "/app/index.php:5 null",
    ]);
    const laravel = [
      '[2024-05-01 12:00:00] production.ERROR: Could not load the invoice {"userId":1,"exception":"[object] (App\\\\Exceptions\\\\InvoiceException(code: 0): Could not load the invoice at /var/www/app/Services/InvoiceService.php:45)',
      "[stacktrace]",
      "#0 /var/www/app/Http/Controllers/InvoiceController.php(22): App\\\\Services\\\\InvoiceService->load(7)",
      "#1 /var/www/vendor/laravel/framework/src/Illuminate/Routing/Controller.php(54): App\\\\Http\\\\Controllers\\\\InvoiceController->show(7)",
      "#2 {main}",
      "",
      "[previous exception] [object] (Illuminate\\\\Database\\\\QueryException(code: 42S22): SQLSTATE[42S22]: Column not found at /var/www/vendor/laravel/framework/src/Illuminate/Database/Connection.php:822)",
      "[stacktrace]",
      "#0 /var/www/vendor/laravel/framework/src/Illuminate/Database/Connection.php(776): Illuminate\\\\Database\\\\Connection->runQueryCallback('select * from \u2026', Array, Object(Closure))",
      "#1 /var/www/app/Services/InvoiceService.php(41): Illuminate\\\\Database\\\\Connection->run('select * from \u2026', Array, Object(Closure))",
      "#2 {main}",
      '"} ',
    ].join("\n");
    expect(brief(parseStackFrames(laravel))).toEqual([
      "/var/www/vendor/laravel/framework/src/Illuminate/Database/Connection.php:822 runQueryCallback",
      "/var/www/vendor/laravel/framework/src/Illuminate/Database/Connection.php:776 run",
      "/var/www/app/Services/InvoiceService.php:41 null",
      "/var/www/app/Services/InvoiceService.php:45 load",
      "/var/www/app/Http/Controllers/InvoiceController.php:22 show",
      "/var/www/vendor/laravel/framework/src/Illuminate/Routing/Controller.php:54 null",
    ]);
  });

  it("reads Symfony console traces (at path:N, a call before it) and Symfony log locations", () => {
    const text = [
      "In AbstractMySQLDriver.php line 112:",
      "  An exception occurred in driver: Connection refused",
      "Exception trace:",
      "  at /app/vendor/doctrine/dbal/src/Driver/API/MySQL/ExceptionConverter.php:101",
      " Doctrine\\DBAL\\Driver\\API\\MySQL\\ExceptionConverter->convert() at /app/vendor/doctrine/dbal/src/Connection.php:1943",
      " Doctrine\\DBAL\\Connection->handleDriverException() at /app/src/Command/ImportCommand.php:40",
      " App\\Command\\ImportCommand->execute() at /app/vendor/symfony/console/Command/Command.php:326",
    ].join("\n");
    expect(brief(parseStackFrames(text))).toEqual([
      "/app/vendor/doctrine/dbal/src/Driver/API/MySQL/ExceptionConverter.php:101 convert",
      "/app/vendor/doctrine/dbal/src/Connection.php:1943 handleDriverException",
      "/app/src/Command/ImportCommand.php:40 execute",
      "/app/vendor/symfony/console/Command/Command.php:326 null",
    ]);
    const log =
      '[2024-01-01T10:00:00+00:00] request.CRITICAL: Uncaught PHP Exception LogicException: "No route" at /app/src/Controller/ShopController.php line 45 {"exception":"[object] (LogicException(code: 0): No route at /app/src/Controller/ShopController.php:45)"} []';
    expect(brief(parseStackFrames(log))).toEqual(["/app/src/Controller/ShopController.php:45 null"]);
  });

  it("reads no PHP frame from prose, PHP code or frames without a file", () => {
    expect(parseStackFrames("#1 [internal function]: App\\Foo->bar()\n#2 {main}")).toEqual([]);
    expect(parseStackFrames("Fixed in #12 and #13 (see Router.php(90)).\n## 2. Routing\n$app->get('/', fn () => include 'index.php');")).toEqual([]);
    expect(parseStackFrames("The Router in src/Router.php calls the resolver on line 90 in some cases")).toEqual([]);
  });

  it("stays linear on long lines that almost match", () => {
    const near = [
      (n: number) => " " + "a.".repeat(n),
      (n: number) => " a.rb:1".repeat(n),
      (n: number) => "panicked at '" + "', a".repeat(n),
      (n: number) => "', a.rs:1:1 x".repeat(n),
      (n: number) => "1: " + "a ".repeat(n),
      (n: number) => "#1 0x1 in " + "a ".repeat(n),
      (n: number) => "#1 a " + "/a.c:1 (".repeat(n),
      (n: number) => "#1 0x1 in f (a,\n  " + ") at a".repeat(n),
      (n: number) => "at " + "a.a".repeat(n) + "(",
      (n: number) => "at a (" + "a.a".repeat(n),
      (n: number) => "  at a() in " + "a:1a:line 1 ".repeat(n),
      (n: number) => "  at " + "a.a".repeat(n) + "() in ",
      (n: number) => "#1 " + "a.a(".repeat(n),
      (n: number) => " in " + "a.php:".repeat(n),
      (n: number) => " in a" + ".php on".repeat(n),
      (n: number) => "#0 " + "a.php(1)".repeat(n),
    ];
    const text = Array.from({ length: 200 }, (_, i) => near[i % near.length](1000).slice(0, 1999)).join("\n");
    const started = performance.now();
    expect(parseStackFrames(text)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000); // a quadratic scan takes seconds
  });

  it("finds nothing in prose and code without a trace", () => {
    expect(parseStackFrames("Where is the file router.ts loaded?\n```python\nprint(open('a.py'))\n```")).toEqual([]);
  });
});

describe("parseStackFrames: paths with spaces, file URLs, anonymous async frames (found by a new-user helper)", () => {
  it("reads Node frames under folders with spaces and file:// URLs, and drops V8's [as alias]", () => {
    const trace = [
      "TypeError: Cannot read properties of undefined (reading 'id')",
      "    at Layer.handle [as handle_request] (C:\\Users\\Dev One\\proj\\node_modules\\express\\lib\\router\\layer.js:95:5)",
      "    at run (C:\\Users\\Dev One\\proj\\lib\\run.js:7:2)",
      "    at load (file:///C:/Users/Dev%20One/proj/lib/load.mjs:3:9)",
      "    at async /app/src/routes/orders.js:12:3",
    ].join("\n");
    expect(parseStackFrames(trace)).toEqual([
      { path: "C:/Users/Dev One/proj/node_modules/express/lib/router/layer.js", line: 95, symbol: "Layer.handle" },
      { path: "C:/Users/Dev One/proj/lib/run.js", line: 7, symbol: "run" },
      { path: "C:/Users/Dev One/proj/lib/load.mjs", line: 3, symbol: "load" },
      { path: "/app/src/routes/orders.js", line: 12, symbol: null },
    ]);
  });

  it("reads PHP frames under folders with spaces", () => {
    const trace = [
      "PHP Fatal error:  Uncaught Exception: boom in C:\\xampp\\htdocs\\my shop\\src\\Cart.php:41",
      "Stack trace:",
      "#0 C:\\xampp\\htdocs\\my shop\\src\\Checkout.php(17): Shop\\Cart->total()",
      "#1 {main}",
    ].join("\n");
    const frames = parseStackFrames(trace);
    expect(frames.map((f) => [f.path, f.line])).toContainEqual(["C:/xampp/htdocs/my shop/src/Checkout.php", 17]);
  });
});

describe("parseStackFrames: prose that looks like a native frame", () => {
  it("needs a sanitizer address, gdb's at or TSan's (module+0x..) after the path", () => {
    expect(parseStackFrames("#3 was fixed in lib/foo.c:12 (thanks)")).toEqual([]);
    expect(parseStackFrames("    #0 worker src/pool.c:88 (app+0x4a5b)")).toEqual([{ path: "src/pool.c", line: 88, symbol: "worker" }]);
  });
});

describe("parseStackFrames: Go function names and traces inside JSON log lines (found by a new-user helper)", () => {
  it("names a Go frame by the function line above it", () => {
    const trace = [
      "panic: key user does not exist",
      "",
      "goroutine 34 [running]:",
      "github.com/gin-gonic/gin.(*Context).MustGet(0xc0001b6000, {0x9b3c1e, 0x4})",
      "\t/home/u/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go:273 +0x7e",
      "main.main.func1(0xc0001b6000)",
      "\t/app/main.go:14 +0x25",
    ].join("\n");
    expect(parseStackFrames(trace).map((f) => [f.path.split("/").pop(), f.line, f.symbol])).toEqual([
      ["context.go", 273, "MustGet"],
      ["main.go", 14, "func1"],
    ]);
  });

  it("reads a Node trace pasted as a JSON string", () => {
    const log =
      '{"level":50,"msg":"request failed","err":{"type":"TypeError","stack":"TypeError: x is undefined\\n    at handler (C:\\\\app\\\\src\\\\routes\\\\orders.js:12:3)\\n    at Layer.handle (/app/node_modules/express/lib/router/layer.js:95:5)"}}';
    expect(parseStackFrames(log).map((f) => [f.path, f.line])).toEqual([
      ["C:/app/src/routes/orders.js", 12],
      ["/app/node_modules/express/lib/router/layer.js", 95],
    ]);
  });

  it("leaves a single escaped line break in code alone", () => {
    expect(parseStackFrames('console.log("failed\\n  at the gate")')).toEqual([]);
  });
});

describe("signatureCallee", () => {
  it("reads the callee of a call whose arguments did not bind, qualified (Python 3.10 on) or not", () => {
    expect(signatureCallee("TypeError: RST.__init__() got an unexpected keyword argument 'header_rows'")).toEqual({ container: "RST", name: "__init__" });
    expect(signatureCallee("TypeError: _print_SingularityFunction() got an unexpected keyword argument 'exp'")).toEqual({
      container: null,
      name: "_print_SingularityFunction",
    });
    expect(signatureCallee("E   TypeError: ascii.core.Writer.write() takes 2 positional arguments but 3 were given")).toEqual({
      container: "Writer",
      name: "write",
    });
    expect(signatureCallee("TypeError: f() missing 1 required positional argument: 'x'")).toEqual({ container: null, name: "f" });
    expect(signatureCallee("TypeError: f() takes from 1 to 2 positional arguments but 3 were given")?.name).toBe("f");
    expect(signatureCallee("TypeError: Api.get() got multiple values for argument 'url'")).toEqual({ container: "Api", name: "get" });
    expect(signatureCallee("TypeError: g() got some positional-only arguments passed as keyword arguments: 'a'")?.name).toBe("g");
  });

  it("takes the last such error: the one raised", () => {
    const text = "TypeError: a() missing 1 required positional argument: 'x'\n...\nTypeError: B.c() got an unexpected keyword argument 'y'";
    expect(signatureCallee(text)).toEqual({ container: "B", name: "c" });
  });

  it("reads no other TypeError, no local function, no special method without its class and no error in prose", () => {
    expect(signatureCallee("TypeError: unsupported operand type(s) for +: 'int' and 'str'")).toBeNull();
    expect(signatureCallee("TypeError: 'NoneType' object is not callable")).toBeNull();
    expect(signatureCallee("TypeError: outer.<locals>.inner() got an unexpected keyword argument 'x'")).toBeNull();
    expect(signatureCallee("it raised a TypeError about f() and its arguments")).toBeNull();
    expect(signatureCallee("TypeError: __init__() got an unexpected keyword argument 'header_rows'")).toBeNull();
  });
});
