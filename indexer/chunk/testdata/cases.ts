/**
 * The golden cases of chunk.test.ts: fixture file (here), the path it is chunked as, options,
 * and its golden file. Regenerate goldens with `node indexer/chunk/testdata/regenerate.mjs`.
 */
export interface GoldenCase {
  fixture: string;
  path: string;
  golden: string;
  options?: { maxChunkLines?: number; windowLines?: number; windowOverlap?: number };
}

export const GOLDEN_CASES: GoldenCase[] = [
  { fixture: "sample.ts.txt", path: "src/users/service.ts", golden: "typescript.golden.json" },
  { fixture: "sample.ts.txt", path: "src/users/service.ts", golden: "typescript-split.golden.json", options: { maxChunkLines: 10 } },
  { fixture: "sample.tsx.txt", path: "web/CounterButton.tsx", golden: "tsx.golden.json" },
  { fixture: "sample.js.txt", path: "server/app.js", golden: "javascript.golden.json" },
  { fixture: "sample.cjs.txt", path: "lib/view.js", golden: "commonjs.golden.json" },
  { fixture: "sample.py.txt", path: "accounts/login.py", golden: "python.golden.json" },
  { fixture: "sample.py.txt", path: "accounts/login.py", golden: "python-split.golden.json", options: { maxChunkLines: 12 } },
  { fixture: "sample.go.txt", path: "store/store.go", golden: "go.golden.json" },
  { fixture: "sample.rs.txt", path: "src/bucket.rs", golden: "rust.golden.json" },
  { fixture: "Sample.java.txt", path: "src/main/java/com/example/auth/SessionManager.java", golden: "java.golden.json" },
  { fixture: "Sample.java.txt", path: "src/main/java/com/example/auth/SessionManager.java", golden: "java-split.golden.json", options: { maxChunkLines: 8 } },
  { fixture: "sample.c.txt", path: "src/buffer.c", golden: "c.golden.json" },
  { fixture: "sample.cpp.txt", path: "src/polygon.cpp", golden: "cpp.golden.json" },
  { fixture: "widget-buffer.h.txt", path: "include/widget/buffer.h", golden: "cpp-header.golden.json" },
  { fixture: "conn.h.txt", path: "src/conn.h", golden: "c-header.golden.json" },
  { fixture: "Sample.cs.txt", path: "Orders/Order.cs", golden: "csharp.golden.json" },
  { fixture: "sample.rb.txt", path: "lib/billing/invoice.rb", golden: "ruby.golden.json" },
  { fixture: "sample.rb.txt", path: "lib/billing/invoice.rb", golden: "ruby-split.golden.json", options: { maxChunkLines: 8 } },
  { fixture: "sample.php.txt", path: "app/Http/UserController.php", golden: "php.golden.json" },
  { fixture: "broken.ts.txt", path: "src/broken.ts", golden: "broken.golden.json" },
  { fixture: "README.md.txt", path: "README.md", golden: "markdown.golden.json" },
  { fixture: "config.yaml.txt", path: "deploy/config.yaml", golden: "yaml.golden.json", options: { windowLines: 5, windowOverlap: 2 } },
];
