import { describe, expect, it } from "vitest";
import { parseStackFrames, signatureCallee } from "./stack-frames";
import {
  applyTracePrior,
  calleeChunk,
  frameChunks,
  frameMatch,
  isThrowHelper,
  outerFrameChunks,
  traceAnchor,
  withCallee,
  type DefinitionChunk,
  type FrameChunk,
} from "./stack-trace";
import { OUTER_FRAME_PRIOR, TRACE_PRIOR } from "./ranking/weights";

describe("frameMatch", () => {
  it.each([
    ["/usr/lib/python3/site-packages/_pytest/python.py", "src/_pytest/python.py", 2],
    ["/home/u/venv/lib/python3.9/site-packages/pylint/config/argument.py", "pylint/config/argument.py", 3],
    ["./sympy/core/sympify.py", "sympy/core/sympify.py", 3],
    ["/Users/a/git/sympy/sympy/core/numbers.py", "sympy/core/numbers.py", 3],
    ["org/acme/billing/Invoice.java", "src/main/java/org/acme/billing/Invoice.java", 4],
    ["src/utils/jwt/jwt.ts", "src/utils/jwt/jwt.ts", 4],
    ["src/utils/jwt/jwt.ts", "src/middleware/jwt/jwt.ts", 2],
    // .NET frames on Windows, backslashes turned into slashes by parseStackFrames.
    ["C:/src/Acme.Billing/InvoiceService.cs", "src/Acme.Billing/InvoiceService.cs", 3],
    ["C:/Users/Jane Doe/source/repos/Acme/Acme.Billing/Repository.cs", "Acme.Billing/Repository.cs", 2],
    ["C:/src/Acme.Billing/InvoiceService.cs", "tests/InvoiceService.cs", 0],
    // Another installed package's file with the same tail, the standard library, a bare name.
    ["/venv/lib/python3.11/site-packages/myplugin/config/__init__.py", "src/_pytest/config/__init__.py", 0],
    ["/app/node_modules/zod/src/index.ts", "src/index.ts", 0],
    ["/usr/lib/python3.11/logging/__init__.py", "src/_pytest/logging/__init__.py", 0],
    ["/usr/lib/python3.9/argparse.py", "pylint/config/argument.py", 0],
    ["/home/u/other/utils.py", "pkg/utils.py", 0],
    ["test_foo.py", "test_foo.py", 1],
    ["test_foo.py", "testing/test_foo.py", 0],
    // Ruby gems: the repo is the gem (its files where the gem has them), or holds it in a directory named for it.
    ["/usr/local/bundle/gems/rack-2.2.3/lib/rack/builder.rb", "lib/rack/builder.rb", 3],
    ["/var/lib/gems/3.0.0/gems/nokogiri-1.15.4-x86_64-linux/lib/nokogiri/xml/node.rb", "lib/nokogiri/xml/node.rb", 4],
    ["/home/u/.gem/ruby/3.2.0/gems/activesupport-7.1.2/lib/active_support/cache.rb", "activesupport/lib/active_support/cache.rb", 4],
    ["/usr/local/bundle/bundler/gems/rails-8f3c2a1b4d5e/activesupport/lib/active_support/cache.rb", "activesupport/lib/active_support/cache.rb", 4],
    ["/usr/local/bundle/gems/rack-2.2.3/lib/rack/builder.rb", "vendor/lib/rack/builder.rb", 0],
    ["/usr/local/bundle/gems/dry-core-1.0.1/lib/dry/core/constants.rb", "lib/my_app/core/constants.rb", 0],
    // The Cargo registry and git checkouts.
    ["/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/src/de.rs", "src/de.rs", 2],
    ["/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.193/src/de/mod.rs", "serde/src/de/mod.rs", 4],
    ["/usr/local/cargo/registry/src/github.com-1ecc6299db9ec823/tokio-util-0.7.10/src/codec/framed.rs", "tokio-util/src/codec/framed.rs", 4],
    ["/home/u/.cargo/git/checkouts/tokio-377c595163f99a10/c4f2a2b/tokio/src/runtime/mod.rs", "tokio/src/runtime/mod.rs", 4],
    ["/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.108/src/de.rs", "crates/app/src/de.rs", 0],
    // A workspace keeps a crate in a folder named for its last part: grep-searcher in crates/searcher/.
    ["/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/grep-searcher-0.1.13/src/line_buffer.rs", "crates/searcher/src/line_buffer.rs", 3],
    ["/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/grep-searcher-0.1.13/src/line_buffer.rs", "crates/printer/src/line_buffer.rs", 0],
    ["/usr/local/bundle/gems/rack-session-2.0.0/lib/rack/session/cookie.rb", "session/lib/rack/session/cookie.rb", 5],
    // The Go module cache, and -trimpath's module paths.
    ["/home/u/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go", "context.go", 1],
    ["/home/u/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/render/json.go", "render/json.go", 2],
    ["/root/go/pkg/mod/github.com/aws/aws-sdk-go-v2/service/s3@v1.47.5/api_client.go", "service/s3/api_client.go", 2],
    ["go.opentelemetry.io/otel/sdk@v1.21.0/trace/span.go", "sdk/trace/span.go", 3],
    ["/home/u/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/render/json.go", "internal/render/json.go", 0],
    ["/home/u/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/context.go", "internal/context.go", 0],
    ["/home/u/go/src/github.com/acme/shop/api/orders.go", "api/orders.go", 2],
    // Composer's vendor/<vendor>/<package>/: the repo is the package, or keeps it in a folder named for it.
    ["/var/www/vendor/slim/slim/Slim/CallableResolver.php", "Slim/CallableResolver.php", 2],
    ["/var/www/vendor/laravel/framework/src/Illuminate/Routing/Router.php", "src/Illuminate/Routing/Router.php", 4],
    ["/var/www/vendor/illuminate/support/Str.php", "src/Illuminate/Support/Str.php", 2],
    ["/app/vendor/symfony/http-kernel/Kernel.php", "src/Symfony/Component/HttpKernel/Kernel.php", 2],
    ["/var/www/vendor/slim/slim/Slim/App.php", "vendor/slim/slim/Slim/App.php", 3],
    ["/var/www/vendor/laravel/framework/src/Illuminate/Foundation/Http/Kernel.php", "app/Http/Kernel.php", 0],
    ["/var/www/vendor/slim/slim/Slim/App.php", "lib/Slim/App.php", 0],
    ["/app/vendor/symfony/http-kernel/Kernel.php", "src/Kernel.php", 0],
    ["/var/www/src/Controller/UserController.php", "src/Controller/UserController.php", 3],
    // Go's vendor/ holds module paths of any depth: the general rule.
    ["/home/u/app/vendor/github.com/gin-gonic/gin/render/json.go", "render/json.go", 2],
    ["/home/u/app/vendor/golang.org/x/net/http2/frame.go", "internal/frame.go", 0],
    // Go's and Rust's standard libraries.
    ["/usr/local/go/src/net/http/server.go", "net/http/server.go", 0],
    ["/usr/lib/go-1.21/src/encoding/json/encode.go", "internal/encoding/json/encode.go", 0],
    ["GOROOT/src/runtime/panic.go", "runtime/panic.go", 0],
    ["/home/u/go/pkg/mod/golang.org/toolchain@v0.0.1-go1.22.0.linux-amd64/src/runtime/panic.go", "src/runtime/panic.go", 0],
    ["/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/io/mod.rs", "src/io/mod.rs", 0],
    ["/home/u/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/result.rs", "core/src/result.rs", 0],
    // Pseudo-paths of code with no file.
    ["<frozen importlib._bootstrap>", "importlib/_bootstrap.py", 0],
    ["<string>", "<string>", 1],
    ["(eval)", "lib/eval.rb", 0],
  ])("%s names %s: %i", (frame, path, want) => expect(frameMatch(frame, path)).toBe(want));
});

describe("frameMatch in a repo that publishes npm packages", () => {
  const express = [{ name: "express", folder: "" }];
  const monorepo = [
    { name: "acme", folder: "" },
    { name: "@acme/server", folder: "packages/server" },
  ];
  it.each([
    // The repo is the package: the path after node_modules/<name>/ is its own path.
    ["/app/node_modules/express/lib/response.js", "lib/response.js", express, 2],
    ["/app/node_modules/express/index.js", "index.js", express, 1],
    ["/app/node_modules/.pnpm/express@4.18.2/node_modules/express/lib/router/index.js", "lib/router/index.js", express, 3],
    ["C:/srv/api/node_modules/express/lib/response.js", "lib/response.js", express, 2],
    ["/app/node_modules/@acme/server/lib/handler.js", "packages/server/lib/handler.js", monorepo, 4],
    ["/app/node_modules/acme/src/index.ts", "src/index.ts", monorepo, 2],
    // Only that path, and only that package: another package, a name's prefix, a scope's other
    // member, a different folder, and the same frame in a repo that publishes nothing.
    ["/app/node_modules/express/lib/response.js", "src/lib/response.js", express, 0],
    ["/app/node_modules/router/lib/layer.js", "lib/layer.js", express, 0],
    ["/app/node_modules/express-session/lib/response.js", "lib/response.js", express, 0],
    ["/app/node_modules/@acme/client/lib/handler.js", "packages/server/lib/handler.js", monorepo, 0],
    ["/app/node_modules/@acme/server/lib/handler.js", "lib/handler.js", monorepo, 0],
    ["/app/node_modules/express/lib/response.js", "lib/response.js", [], 0],
    ["/app/node_modules/zod/src/index.ts", "src/index.ts", express, 0],
    // The installed-package rule still holds beside it, and frames outside node_modules/ are read as before.
    ["/app/node_modules/express/lib/response.js", "vendor/express/lib/response.js", express, 3],
    ["/home/u/express/lib/response.js", "lib/response.js", express, 2],
    // Python has no such rule: site-packages/ frames keep their package folder.
    ["/venv/lib/python3.11/site-packages/express/lib/response.py", "lib/response.py", express, 0],
  ])("%s names %s: %i", (frame, path, packages, want) => expect(frameMatch(frame, path, packages)).toBe(want));
});

describe("isThrowHelper", () => {
  it.each([
    ["fmt::v12::report_error", true],
    ["fmt::v9::detail::throw_format_error", true],
    ["GetResultOrRethrow", true],
    ["ThrowIfCancellationRequested", true],
    ["Throw", true],
    ["Acme.Guard.ThrowArgumentNull", true],
    ["_raise_error", true],
    ["raiseError", true],
    ["fail", true],
    ["invariant", true],
    ["std::vector<int, std::allocator<int> >::at", false],
    ["fmt::v12::detail::handle_dynamic_spec<fmt::v12::context>", false],
    ["MustGet", false],
    ["throwable", false],
    ["raised", false],
    ["failover", false],
    ["handleError", false],
    ["format_error", false],
    ["abortTransaction", false],
    [null, false],
  ])("%s: %s", (symbol, want) => expect(isThrowHelper(symbol)).toBe(want));
});

describe("applyTracePrior", () => {
  const candidates = [
    { path: "sympy/physics/mechanics/system.py", score: 1 },
    { path: "sympy/utilities/codegen.py", score: 0.9 },
    { path: "sympy/core/numbers.py", score: 0.8 },
  ];

  it("lifts the file of the innermost frame that is in the repo", () => {
    const frames = parseStackFrames(
      '  File "/Users/a/sympy/sympy/core/numbers.py", line 1045, in __new__\n  File "/usr/lib/python3.9/pickle.py", line 3, in load',
    );
    const out = applyTracePrior(candidates, frames);
    expect(out[0]).toEqual({ path: "sympy/core/numbers.py", score: 0.8 * TRACE_PRIOR });
    expect(out.slice(1).map((c) => c.path)).toEqual(["sympy/physics/mechanics/system.py", "sympy/utilities/codegen.py"]);
  });

  it("lifts the chunk holding the innermost frame's line above the rest of its file", () => {
    const file = [
      { path: "src/line_buffer.rs", chunkId: "reader", score: 1 },
      { path: "src/line_buffer.rs", chunkId: "fill", score: 0.6 },
      { path: "src/glue.rs", chunkId: "glue", score: 1.5 },
    ];
    const out = applyTracePrior(file, parseStackFrames("thread 'main' panicked at src/line_buffer.rs:415:9:"), "fill");
    expect(out.map((c) => [c.chunkId, c.score])).toEqual([
      ["fill", 0.6 * TRACE_PRIOR * TRACE_PRIOR],
      ["reader", TRACE_PRIOR],
      ["glue", 1.5],
    ]);
  });

  it("lifts the file the frame names best when two share its last segments", () => {
    const jwt = [
      { path: "src/middleware/jwt/jwt.ts", score: 1 },
      { path: "src/utils/jwt/jwt.ts", score: 0.9 },
    ];
    const out = applyTracePrior(jwt, parseStackFrames("    at verify (src/utils/jwt/jwt.ts:80:11)"));
    expect(out[0].path).toBe("src/utils/jwt/jwt.ts");
  });

  it("lifts the file of a Java trace's root cause, not the wrapper's first frame", () => {
    const report = [
      "com.google.gson.JsonSyntaxException: java.lang.IllegalStateException: Expected BEGIN_OBJECT",
      "\tat com.google.gson.internal.bind.ReflectiveTypeAdapterFactory$Adapter.read(ReflectiveTypeAdapterFactory.java:397)",
      "Caused by: java.lang.IllegalStateException: Expected BEGIN_OBJECT",
      "\tat com.google.gson.stream.JsonReader.beginObject(JsonReader.java:507)",
      "\t... 12 more",
    ].join("\n");
    const gson = [
      { path: "gson/src/main/java/com/google/gson/internal/bind/ReflectiveTypeAdapterFactory.java", score: 1 },
      { path: "gson/src/main/java/com/google/gson/stream/JsonReader.java", score: 0.9 },
    ];
    expect(applyTracePrior(gson, parseStackFrames(report))[0].path).toBe("gson/src/main/java/com/google/gson/stream/JsonReader.java");
  });

  it("lifts the file of a .NET trace's innermost exception, its Windows path matched by its last segments", () => {
    const report = [
      "System.InvalidOperationException: Could not load order 7",
      " ---> System.Collections.Generic.KeyNotFoundException: The given key 'o7' was not present in the dictionary.",
      "   at System.Collections.Generic.Dictionary`2.get_Item(TKey key)",
      "   at Acme.Data.OrderCache.Get(String key) in C:\\build\\agent\\_work\\1\\s\\src\\Acme.Data\\OrderCache.cs:line 31",
      "   --- End of inner exception stack trace ---",
      "   at Acme.Orders.OrderService.Load(Int32 id) in C:\\build\\agent\\_work\\1\\s\\src\\Acme.Orders\\OrderService.cs:line 22",
    ].join("\n");
    const acme = [
      { path: "src/Acme.Orders/OrderService.cs", score: 1 },
      { path: "src/Acme.Data/OrderCache.cs", score: 0.8 },
    ];
    expect(applyTracePrior(acme, parseStackFrames(report))[0]).toEqual({ path: "src/Acme.Data/OrderCache.cs", score: 0.8 * TRACE_PRIOR });
  });

  it("lifts the file of a Go trace's module frame only in the module's repo, past standard-library frames", () => {
    const report = [
      "panic: reflect: call of reflect.Value.Interface on zero Value",
      "",
      "goroutine 1 [running]:",
      "reflect.valueInterface({0x0?, 0x0?, 0x0?}, 0x0?)",
      "\t/usr/local/go/src/reflect/value.go:1495 +0x10e",
      "encoding/json.(*encodeState).reflectValue(...)",
      "\t/usr/local/go/src/encoding/json/encode.go:358 +0x78",
      "github.com/gin-gonic/gin/render.WriteJSON({0xa0b3c8, 0xc0001c0000}, {0x8f3b20, 0xc00012e0f0})",
      "\t/home/u/go/pkg/mod/github.com/gin-gonic/gin@v1.9.1/render/json.go:70 +0x8b",
      "github.com/acme/shop/api.(*Handler).GetOrder(0xc0001a2000, 0xc0002b8100)",
      "\t/home/u/src/shop/api/orders.go:42 +0x4e",
    ].join("\n");
    const frames = parseStackFrames(report);
    const gin = [
      { path: "context.go", score: 1 },
      { path: "render/json.go", score: 0.8 },
    ];
    expect(applyTracePrior(gin, frames)[0].path).toBe("render/json.go");
    const shop = [
      { path: "internal/render/json.go", score: 1 },
      { path: "api/orders.go", score: 0.8 },
    ];
    expect(applyTracePrior(shop, frames)[0]).toEqual({ path: "api/orders.go", score: 0.8 * TRACE_PRIOR });
  });

  it("lifts the file of a PHP error's location in the package's own repo, and only the app's own file in the app's", () => {
    const report = [
      "PHP Fatal error:  Uncaught RuntimeException: Callable App\\Controller\\UserController::show() does not exist in /var/www/vendor/slim/slim/Slim/CallableResolver.php:138",
      "Stack trace:",
      "#0 /var/www/vendor/slim/slim/Slim/CallableResolver.php(90): Slim\\CallableResolver->resolveSlimNotation('App\\\\Controller\\\\...')",
      "#1 /var/www/vendor/slim/slim/Slim/Routing/Route.php(340): Slim\\CallableResolver->resolveRoute('App\\\\Controller\\\\...')",
      "#2 /var/www/src/Http/Kernel.php(24): Slim\\Routing\\Route->handle(Object(Nyholm\\Psr7\\ServerRequest))",
      "#3 {main}",
      "  thrown in /var/www/vendor/slim/slim/Slim/CallableResolver.php on line 138",
    ].join("\n");
    const frames = parseStackFrames(report);
    const slim = [
      { path: "Slim/Routing/Route.php", score: 1 },
      { path: "Slim/CallableResolver.php", score: 0.8 },
    ];
    expect(applyTracePrior(slim, frames)[0]).toEqual({ path: "Slim/CallableResolver.php", score: 0.8 * TRACE_PRIOR });
    const app = [
      { path: "src/Routing/Route.php", score: 1 },
      { path: "src/Http/Kernel.php", score: 0.8 },
    ];
    expect(applyTracePrior(app, frames)[0]).toEqual({ path: "src/Http/Kernel.php", score: 0.8 * TRACE_PRIOR });
  });

  it("lifts the caller's file, not a throw helper's, when an outer frame is in the repo too", () => {
    const gdb = [
      "#4  0x00007ffff7cba0ea in __cxa_throw () from /lib/x86_64-linux-gnu/libstdc++.so.6",
      '#5  0x0000555555561b2c in fmt::v12::report_error (message=0x5555555a4010 "argument not found") at /home/dev/fmt/include/fmt/format-inl.h:164',
      "#6  0x000055555556a7f1 in fmt::v12::detail::handle_dynamic_spec<fmt::v12::context> (kind=fmt::v12::detail::arg_id_kind::index, ref=..., ctx=...) at /home/dev/fmt/include/fmt/format.h:3766",
      "#7  0x0000555555560e3d in main () at /home/dev/app/main.cc:6",
    ].join("\n");
    const fmt = [
      { path: "include/fmt/format-inl.h", score: 1 },
      { path: "include/fmt/format.h", score: 0.8 },
    ];
    expect(applyTracePrior(fmt, parseStackFrames(gdb))[0]).toEqual({ path: "include/fmt/format.h", score: 0.8 * TRACE_PRIOR });
    // No outer frame in the repo: the helper's file is the trace's.
    const only = parseStackFrames(
      "#5  0x00005555 in fmt::v12::report_error (message=0x0) at /home/dev/fmt/include/fmt/format-inl.h:164\n#7  0x00005555 in main () at /home/dev/app/main.cc:6",
    );
    expect(applyTracePrior(fmt.slice().reverse(), only)[0]).toEqual({ path: "include/fmt/format-inl.h", score: TRACE_PRIOR });
  });

  it("changes nothing when no frame names a candidate's file", () => {
    const frames = parseStackFrames('  File "/usr/lib/python3.9/argparse.py", line 2483, in _get_value');
    expect(applyTracePrior(candidates, frames)).toEqual(candidates);
  });

  it("lifts an installed npm package's file only in the repo that publishes the package", () => {
    const report = [
      "TypeError: path must be absolute or specify root to res.sendFile",
      "    at ServerResponse.sendFile (/srv/api/node_modules/express/lib/response.js:395:11)",
      "    at /srv/api/server.js:21:7",
      "    at Layer.handleRequest (/srv/api/node_modules/router/lib/layer.js:152:17)",
    ].join("\n");
    const frames = parseStackFrames(report);
    const files = [
      { repo: "express", path: "lib/application.js", score: 1 },
      { repo: "express", path: "lib/response.js", score: 0.8 },
      { repo: "app", path: "lib/response.js", score: 0.9 },
    ];
    const packages = new Map([
      ["express", [{ name: "express", folder: "" }]],
      ["app", [{ name: "my-app", folder: "" }]],
    ]);
    expect(applyTracePrior(files, frames, undefined, packages)).toEqual([
      { repo: "express", path: "lib/response.js", score: 0.8 * TRACE_PRIOR },
      { repo: "express", path: "lib/application.js", score: 1 },
      { repo: "app", path: "lib/response.js", score: 0.9 },
    ]);
    // Without packages the frame names no file: the installed-package rule.
    expect(applyTracePrior(files, frames)).toEqual(files);
    expect(applyTracePrior(files, frames, undefined, new Map([["app", [{ name: "express", folder: "" }]]]))[0]).toEqual({
      repo: "app",
      path: "lib/response.js",
      score: 0.9 * TRACE_PRIOR,
    });
  });

  it("lifts a file with the same path in several repos when the frame names it in each", () => {
    const frames = parseStackFrames("    at verify (src/utils/jwt/jwt.ts:80:11)");
    const files = [
      { repo: "a", path: "src/index.ts", score: 1 },
      { repo: "a", path: "src/utils/jwt/jwt.ts", score: 0.6 },
      { repo: "b", path: "src/utils/jwt/jwt.ts", score: 0.55 },
    ];
    expect(applyTracePrior(files, frames).map((c) => [c.repo, c.score])).toEqual([
      ["a", 0.6 * TRACE_PRIOR],
      ["b", 0.55 * TRACE_PRIOR],
      ["a", 1],
    ]);
  });
});

describe("traceAnchor", () => {
  const c = (id: string, path: string, startLine: number, endLine: number): FrameChunk => ({ repo: "r", id, path, startLine, endLine });
  const frames = parseStackFrames(
    ['  File "/home/u/app/pkg/cli.py", line 3, in main', '  File "/home/u/app/pkg/core/numbers.py", line 12, in __new__'].join("\n"),
  );

  it("takes the innermost frame's chunk, the smallest one holding the line", () => {
    const chunks = [c("cls", "pkg/core/numbers.py", 1, 40), c("new", "pkg/core/numbers.py", 10, 20), c("main", "pkg/cli.py", 1, 5)];
    expect(traceAnchor(frames, chunks)?.id).toBe("new");
  });

  it("falls back to an outer frame when the innermost names no looked-up chunk", () => {
    const chunks = [c("other", "vendor/numbers.py", 10, 20), c("main", "pkg/cli.py", 1, 5)];
    expect(traceAnchor(frames, chunks)?.id).toBe("main");
  });

  it("takes the caller's chunk past a throw helper's, and the helper's when nothing outer was looked up", () => {
    const thrown = parseStackFrames(
      ['  File "/app/pkg/cli.py", line 3, in main', '  File "/app/pkg/errors.py", line 8, in raise_error', "ValueError: bad"].join("\n"),
    );
    const helper = c("raise", "pkg/errors.py", 7, 9);
    expect(traceAnchor(thrown, [helper, c("main", "pkg/cli.py", 1, 5)])?.id).toBe("main");
    expect(traceAnchor(thrown, [helper])?.id).toBe("raise");
  });

  it("takes a chunk of an installed npm package's file only in the repo that publishes it", () => {
    const npm = parseStackFrames("    at ServerResponse.sendFile (/srv/api/node_modules/express/lib/response.js:395:11)\n    at /srv/api/server.js:21:7");
    const chunks = [
      { ...c("app", "lib/response.js", 380, 420), repo: "app" },
      { ...c("express", "lib/response.js", 373, 415), repo: "express" },
    ];
    expect(traceAnchor(npm, chunks, new Map([["express", [{ name: "express", folder: "" }]]]))?.id).toBe("express");
    expect(traceAnchor(npm, chunks)).toBeNull();
  });

  it("needs the line inside the chunk", () => {
    expect(traceAnchor(frames, [c("new", "pkg/core/numbers.py", 30, 40)])).toBeNull();
  });
});

describe("outerFrameChunks", () => {
  const c = (id: string, path: string, startLine: number, endLine: number): FrameChunk => ({ repo: "r", id, path, startLine, endLine });
  // pytest's long format: outermost first, the failure surfacing in the parser.
  const frames = parseStackFrames(
    [
      "pkg/core/expr.py:124: in __eq__",
      "    other = convert(other)",
      "pkg/core/convert.py:385: in convert",
      "    expr = parse(a)",
      "pkg/parsing/parser.py:1011: in parse",
      "    return evaluate(code)",
      "pkg/parsing/parser.py:906: in evaluate",
      "    code, global_dict, local_dict)",
      "E   AttributeError: 'Symbol' object has no attribute 'y'",
    ].join("\n"),
  );
  const chunks = [
    c("eq", "pkg/core/expr.py", 110, 130),
    c("convert", "pkg/core/convert.py", 300, 400),
    c("parse", "pkg/parsing/parser.py", 1000, 1020),
    c("eval", "pkg/parsing/parser.py", 900, 910),
  ];

  it("gives the callers' chunks, innermost first, outside the anchor's file", () => {
    const anchor = traceAnchor(frames, chunks);
    expect(anchor?.id).toBe("eval");
    expect(outerFrameChunks(frames, chunks, anchor).map((o) => o.id)).toEqual(["convert", "eq"]);
    expect(outerFrameChunks(frames, chunks, null)).toEqual([]);
  });

  it("lifts the callers' files less than the file where the trace surfaced", () => {
    const candidates = [
      { path: "pkg/other.py", score: 1 },
      { path: "pkg/core/expr.py", score: 0.5 },
      { path: "pkg/parsing/parser.py", score: 0.6 },
    ].map((x) => ({ ...x, repo: "r" }));
    const outer = outerFrameChunks(frames, chunks, traceAnchor(frames, chunks));
    expect(applyTracePrior(candidates, frames, undefined, undefined, outer)).toEqual([
      { path: "pkg/parsing/parser.py", repo: "r", score: 0.6 * TRACE_PRIOR },
      { path: "pkg/other.py", repo: "r", score: 1 },
      { path: "pkg/core/expr.py", repo: "r", score: 0.5 * OUTER_FRAME_PRIOR },
    ]);
  });
});

describe("frameChunks", () => {
  it("looks up no pseudo-path or standard-library frame (Python, Go, Rust), so they use up no lookup", async () => {
    let bound: unknown[] = [];
    const db = {
      prepare: () => ({
        bind: (...params: unknown[]) => {
          bound = params;
          return { all: async () => ({ results: [] }) };
        },
      }),
    } as unknown as D1Database;
    const frames = parseStackFrames(
      [
        '  File "/app/pkg/cli.py", line 3, in main',
        '  File "<frozen importlib._bootstrap>", line 1006, in _find_and_load',
        '  File "<frozen importlib._bootstrap_external>", line 850, in exec_module',
        '  File "/usr/lib/python3.11/importlib/__init__.py", line 126, in import_module',
        '  File "/app/pkg/plugins.py", line 12, in <module>',
      ].join("\n"),
    );
    await frameChunks(db, "r", "c0", frames, { includeTests: true });
    expect(bound).toEqual(["c0", "r", "r", "c0", "%/plugins.py", "%/cli.py", "%/plugins.py", 12, 12, "%/cli.py", 3, 3]);
    const native = parseStackFrames(
      [
        "goroutine 1 [running]:",
        "\t/usr/local/go/src/runtime/panic.go:914 +0x21f",
        "\t/home/u/src/shop/api/orders.go:42 +0x4e",
        "thread 'main' panicked at src/main.rs:4:5:",
        "   0: rust_begin_unwind",
        "             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5",
      ].join("\n"),
    );
    await frameChunks(db, "r", "c0", native, { includeTests: true });
    expect(bound).toEqual(["c0", "r", "r", "c0", "%/orders.go", "%/main.rs", "%/orders.go", 42, 42, "%/main.rs", 4, 4]);
  });
});

describe("calleeChunk and withCallee", () => {
  const def = (id: string, path: string, symbol: string, container: string | null, kind = "method"): DefinitionChunk => ({
    repo: "r",
    id,
    path,
    startLine: 1,
    endLine: 9,
    symbol,
    container,
    kind,
  });
  const caller: FrameChunk = { repo: "r", id: "get_writer", path: "io/core.py", startLine: 1, endLine: 20 };
  const callee = signatureCallee("TypeError: RST.__init__() got an unexpected keyword argument 'header_rows'")!;

  it("finds the method in its class, else the class's own chunk", () => {
    const init = def("init", "io/rst.py", "__init__", "RST");
    const cls = def("rst", "io/rst.py", "RST", null, "class");
    const other = def("other-init", "io/fixed.py", "__init__", "FixedWidth");
    expect(calleeChunk(callee, [other, cls, init], caller)?.id).toBe("init");
    expect(calleeChunk(callee, [other, cls], caller)?.id).toBe("rst");
    expect(calleeChunk(callee, [other], caller)).toBeNull();
  });

  it("takes a name defined in several files only in the file where the trace surfaced", () => {
    const unqualified = { container: null, name: "_print_Pow" };
    const latex = def("latex", "printing/latex.py", "_print_Pow", "LatexPrinter");
    const pretty = def("pretty", "printing/pretty.py", "_print_Pow", "PrettyPrinter");
    expect(calleeChunk(unqualified, [pretty, latex], { ...caller, path: "printing/latex.py" })?.id).toBe("latex");
    expect(calleeChunk(unqualified, [pretty, latex], caller)).toBeNull();
    expect(calleeChunk(unqualified, [pretty], caller)?.id).toBe("pretty");
  });

  it("makes the callee the innermost frame and the caller an outer one", () => {
    const ui: FrameChunk = { repo: "r", id: "write", path: "io/ui.py", startLine: 1, endLine: 9 };
    const chunk = def("rst", "io/rst.py", "RST", null, "class");
    const trace = withCallee(parseStackFrames('  File "/x/io/core.py", line 3, in get_writer'), caller, [ui], callee, chunk);
    expect(trace.frames[0]).toEqual({ path: "io/rst.py", line: 1, symbol: "RST.__init__" });
    expect(trace.anchor.id).toBe("rst");
    expect(trace.outer.map((o) => o.id)).toEqual(["get_writer", "write"]);
    const candidates = [
      { path: "io/core.py", repo: "r", chunkId: "get_writer", score: 1 },
      { path: "io/rst.py", repo: "r", chunkId: "rst", score: 0.3 },
    ];
    expect(applyTracePrior(candidates, trace.frames, trace.anchor.id, undefined, trace.outer)).toEqual([
      { path: "io/core.py", repo: "r", chunkId: "get_writer", score: OUTER_FRAME_PRIOR },
      { path: "io/rst.py", repo: "r", chunkId: "rst", score: 0.3 * TRACE_PRIOR * TRACE_PRIOR },
    ]);
  });
});
