import { describe, expect, it } from "vitest";
import { createFileFilter, type FileFilter } from "./file-filter";
import type { SkipReason } from "./skip-reason";

const filter = createFileFilter({
  maxFileBytes: 1000,
  ignoreFiles: [{ path: ".gitignore", content: "*.log\n!keep.log\n" }],
});

const entryCases: [path: string, mode: string | number, size: number, expected: SkipReason | null][] = [
  ["src/index.ts", "100644", 10, null],
  ["bin/run.sh", "100755", 10, null],
  ["src/index.ts", 0o100644, 10, null],
  ["Dockerfile", "100644", 10, null],
  ["Makefile", "100644", 10, null],
  ["LICENSE", "100644", 10, null],
  [".github/workflows/ci.yml", "100644", 10, null],
  ["link", "120000", 10, "symlink"],
  ["link", 0o120000, 10, "symlink"],
  ["deps/lib", "160000", 0, "submodule"],
  ["src", "040000", 0, "unsupported"],
  ["debug.log", "100644", 10, "ignored"],
  ["keep.log", "100644", 10, null],
  ["big.ts", "100644", 1001, "too_large"],
  ["exact.ts", "100644", 1000, null],
  ["node_modules/hono/index.js", "100644", 10, "vendored"],
  ["packages/a/node_modules/x/y.js", "100644", 10, "vendored"],
  ["vendor/github.com/x/y.go", "100644", 10, "vendored"],
  ["dist/bundle.js", "100644", 10, "vendored"],
  ["build/build.ts", "100644", 10, null], // hand-written build scripts live there (path-rules.ts)
  ["target/debug/main.rs", "100644", 10, null], // no Cargo.toml/pom.xml beside it: see the target/ cases below
  ["pkg/__pycache__/m.pyc", "100644", 10, "vendored"],
  [".next/server/page.js", "100644", 10, "vendored"],
  ["coverage/lcov.info", "100644", 10, "vendored"],
  ["third_party/zlib/zlib.h", "100644", 10, "vendored"],
  [".env", "100644", 10, "secret"],
  [".env.local", "100644", 10, "secret"],
  ["config/.env.production", "100644", 10, "secret"],
  [".env.example", "100644", 10, null],
  ["server.pem", "100644", 10, "secret"],
  ["tls/private.key", "100644", 10, "secret"],
  ["id_rsa", "100644", 10, "secret"],
  ["keys/id_ed25519.pub", "100644", 10, "secret"],
  ["cert.p12", "100644", 10, "secret"],
  ["android/release.jks", "100644", 10, "secret"],
  ["credentials.json", "100644", 10, "secret"],
  [".npmrc", "100644", 10, "secret"],
  [".netrc", "100644", 10, "secret"],
  [".pypirc", "100644", 10, "secret"],
  ["home/.aws/credentials", "100644", 10, "secret"],
  ["package-lock.json", "100644", 10, "lockfile"],
  ["web/yarn.lock", "100644", 10, "lockfile"],
  ["pnpm-lock.yaml", "100644", 10, "lockfile"],
  ["Cargo.lock", "100644", 10, "lockfile"],
  ["poetry.lock", "100644", 10, "lockfile"],
  ["Gemfile.lock", "100644", 10, "lockfile"],
  ["composer.lock", "100644", 10, "lockfile"],
  ["go.sum", "100644", 10, "lockfile"],
  ["package.json", "100644", 10, null],
  ["go.mod", "100644", 10, null],
  ["static/jquery.min.js", "100644", 10, "minified"],
  ["static/site.min.css", "100644", 10, "minified"],
  ["static/app.js.map", "100644", 10, "generated"],
  ["api/user.pb.go", "100644", 10, "generated"],
  ["api/user_pb2.py", "100644", 10, "generated"],
  ["src/schema_generated.ts", "100644", 10, "generated"],
  ["lib/model.g.dart", "100644", 10, "generated"],
  ["logo.png", "100644", 10, "binary"],
  ["fonts/a.woff2", "100644", 10, "binary"],
  ["pkg/tool.wasm", "100644", 10, "binary"],
  ["image.svg", "100644", 10, null],
];

describe("checkEntry", () => {
  it.each(entryCases)("%s (mode %s, %i bytes) -> %s", (path, mode, size, expected) => {
    expect(filter.checkEntry({ path, mode, size })?.reason ?? null).toBe(expected);
  });

  it("reports .gitignore before vendored, vendored before secret", () => {
    const f = createFileFilter({ maxFileBytes: 1000, ignoreFiles: [{ path: ".gitignore", content: "node_modules/\n" }] });
    expect(f.checkEntry({ path: "node_modules/a/.env", mode: "100644", size: 1 })?.reason).toBe("ignored");
    expect(filter.checkEntry({ path: "node_modules/a/.env", mode: "100644", size: 1 })?.reason).toBe("vendored");
  });
});

const enc = (s: string) => new TextEncoder().encode(s);

/** The skip reason `checkContent` gives, or null when it gives text to index. */
async function reasonOf(f: FileFilter, path: string, bytes: Uint8Array): Promise<SkipReason | null> {
  const v = await f.checkContent(path, bytes);
  return "skip" in v ? v.skip.reason : null;
}
// Secret fixtures are assembled at run time so this file itself never looks like it holds one.
const pemBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
const begin = (kind: string) => ["-----BEGIN", `${kind}PRIVATE`, "KEY-----"].join(" ").replace("  ", " ");
const pem = (kind: string) => `${begin(kind)}\n${pemBody}\n-----END PRIVATE KEY-----\n`;
const longLine = "var a=function(){return 1};".repeat(200);

const contentCases: [name: string, content: string | Uint8Array, expected: SkipReason | null][] = [
  ["plain code", "export function add(a: number, b: number) {\n  return a + b;\n}\n", null],
  ["empty file", "", null],
  ["UTF-8 text with accents and CJK", "// café, naïve, 日本語のコメント\nconst x = 1;\n", null],
  ["NUL byte", new Uint8Array([0x68, 0x69, 0x00, 0x21]), "binary"],
  ["PNG header", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), "binary"],
  ["control bytes", new Uint8Array(Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41))), "binary"],
  // Not UTF-8 and no encoding the detector trusts: text that cannot be decoded, not binary.
  ["invalid UTF-8", new Uint8Array(Array.from({ length: 100 }, (_, i) => (i % 2 ? 0xff : 0x41))), "unsupported_encoding"],
  ["PEM private key", pem(""), "secret"],
  ["RSA private key", `const k = \`${pem("RSA ")}\`;`, "secret"],
  ["OpenSSH private key", pem("OPENSSH "), "secret"],
  ["private key in a JSON string", JSON.stringify({ private_key: pem("") }), "secret"],
  ["a doc mentioning the PEM header only", `Paste a key that starts with ${begin("")} here.\n`, null],
  ["AWS access key id", `aws_access_key_id = ${"AKIA"}Q3EGRIVTKX7ZQ4NB\n`, "secret"],
  ["AWS documentation example key", `key = ${"AKIA"}IOSFODNN7EXAMPLE\n`, null],
  ["GitHub classic token", `token: ${"ghp_"}${"a1B2".repeat(9)}\n`, "secret"],
  ["GitHub fine-grained token", `${"github_pat_"}${"11ABCDEFG0"}_${"x".repeat(59)}\n`, "secret"],
  ["Slack token", `SLACK=${"xoxb-"}123456789012-abcdefABCDEF\n`, "secret"],
  ["Stripe live key", `stripe(${JSON.stringify("sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc")})`, "secret"],
  // secretlint's Stripe rule flags test-mode keys too: they still open the account's test data.
  ["Stripe test key", `stripe(${JSON.stringify("sk_" + "test_" + "4eC39HqLyjWDarjtT1zdp7dc")})`, "secret"],
  ["Google API key", `key=${"AIza"}SyD-abcdefghijklmnopqrstuvwxyz01234\n`, "secret"],
  ["JWK private key", JSON.stringify({ kty: "RSA", n: "0vx7", e: "AQAB", d: "X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN" }), "secret"],
  ["JWK public key", JSON.stringify({ kty: "RSA", n: "0vx7agoebGcQSuuPiLJXZpt", e: "AQAB" }), null],
  ["Go generated header", `// Code generated ${"by protoc-gen-go"}. DO NOT EDIT.\n\npackage api\n`, "generated"],
  ["@generated marker", `/**\n * ${"@"}generated\n */\nexport const x = 1;\n`, "generated"],
  ["auto-generated banner", `# This file is ${"auto-generated"} by tool. Do not edit.\nx = 1\n`, "generated"],
  ["'generated' in ordinary code", "// the generated ids are unique\nconst ids = generateIds();\n", null],
  ["minified by line length", longLine, "minified"],
  ["long but normal file", "const x = 1;\n".repeat(500), null],
];

describe("checkContent", () => {
  const contentFilter = createFileFilter({ maxFileBytes: 1 << 20, ignoreFiles: [] });
  it.each(contentCases)("%s -> %s", async (_name, content, expected) => {
    const bytes = typeof content === "string" ? enc(content) : content;
    expect(await reasonOf(contentFilter, "file.txt", bytes)).toBe(expected);
  });

  it("applies the size cap to content too", async () => {
    expect(await reasonOf(filter, "big.ts", enc("x\n".repeat(501)))).toBe("too_large");
  });

  it("does not count a multi-byte character cut at the sniff boundary as binary", async () => {
    const text = "abc\n".repeat(1999) + "abc" + "é".repeat(50);
    expect(enc(text)[7999]).toBe(0xc3); // first byte of "é" is the last sniffed byte
    expect(await reasonOf(contentFilter, "x.txt", enc(text))).toBeNull();
  });
});

describe("target/ is build output only beside its build file", () => {
  const paths = [
    "Cargo.toml",
    "target/debug/build.rs",
    "java/pom.xml",
    "java/target/classes/App.java",
    "java/src/main/App.java",
    "scala/build.sbt",
    "scala/target/scala-3/x.scala",
    "tests/roots/test-ext-autodoc/target/enums.py",
    "tests/roots/test-ext-autodoc/conf.py",
  ];
  const treeFilter = createFileFilter({ maxFileBytes: 1000, ignoreFiles: [], paths });
  it.each([
    ["target/debug/build.rs", "vendored"],
    ["java/target/classes/App.java", "vendored"],
    ["scala/target/scala-3/x.scala", "vendored"],
    ["java/src/main/App.java", null],
    ["tests/roots/test-ext-autodoc/target/enums.py", null],
  ] as const)("%s -> %s", (path, expected) => {
    expect(treeFilter.checkEntry({ path, mode: "100644", size: 10 })?.reason ?? null).toBe(expected);
  });

  it("a gitignored target/ is skipped as ignored", () => {
    const f = createFileFilter({ maxFileBytes: 1000, ignoreFiles: [{ path: ".gitignore", content: "target/\n" }], paths: ["lib/target/x.py"] });
    expect(f.checkEntry({ path: "lib/target/x.py", mode: "100644", size: 10 })?.reason).toBe("ignored");
  });
});
