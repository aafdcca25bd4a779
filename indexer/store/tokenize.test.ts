/**
 * Table tests of the shared tokenizer (part of the storage contract: index rows and queries
 * must tokenize alike). Runs in workerd.
 */
import { describe, expect, it } from "vitest";
import { CJK_EXPANSIONS, splitIdentifier, tokenize, tokenizeQuery } from "./tokenize";

describe("tokenize (index side)", () => {
  it.each([
    ["getUserById", ["getuserbyid", "get", "user", "by", "id"]],
    ["UserService", ["userservice", "user", "service"]],
    ["snake_case_name", ["snakecasename", "snake", "case", "name"]],
    ["kebab-case-name", ["kebab", "case", "name"]],
    ["HTTP2Server", ["http2server", "http", "2", "server", "http2"]],
    ["isProxyEventV2", ["isproxyeventv2", "is", "proxy", "event", "v", "2", "v2"]],
    ["v2", ["v2", "v", "2"]],
    ["parseHTMLDocument", ["parsehtmldocument", "parse", "html", "document"]],
    ["XMLHttpRequest", ["xmlhttprequest", "xml", "http", "request"]],
    ["src/app/router.ts", ["src", "app", "router", "ts"]],
    ["base64Encode", ["base64encode", "base", "64", "encode", "base64"]],
    ["$scope __init__", ["scope", "init"]],
    ["const MAX_FILE_BYTES = 1024;", ["const", "maxfilebytes", "max", "file", "bytes", "1024"]],
    ["plain words", ["plain", "words"]],
    ["", []],
  ])("%j", (text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  it("splits CJK runs into overlapping bigrams and keeps Latin words apart", () => {
    expect(tokenize("用户登录")).toEqual(["用户", "户登", "登录"]);
    expect(tokenize("// 检查用户token是否过期")).toEqual(["检查", "查用", "用户", "是否", "否过", "过期", "token"]);
    expect(tokenize("字")).toEqual(["字"]);
    expect(tokenize("ログイン処理")).toEqual(["ログ", "グイ", "イン", "ン処", "処理"]);
  });

  it("emits only letters and digits, so FTS5 unicode61 keeps each token whole", () => {
    for (const t of tokenize("a_b$c-d/e.f getX_Y 用户_登录")) expect(t).toMatch(/^[\p{L}\p{N}]+$/u);
  });

  it("gives a word the same tokens from its cache as on first sight, whatever text it came from", () => {
    // Words of 13+ characters are slices of their text; the cache must not depend on that text.
    const text = "isProxyEventV2 HTTP2ServerConnection getUserById 用户登录 snake_case_name";
    const first = tokenize(text);
    expect(first).toEqual(tokenize(`x ${text}`).slice(1));
    first.push("mutated");
    expect(tokenize(text)).toEqual(first.slice(0, -1));
    expect(tokenize("HTTP2ServerConnection")).toEqual(["http2serverconnection", "http", "2", "server", "connection", "http2"]);
  });

  it("splitIdentifier keeps acronyms and digits apart", () => {
    expect(splitIdentifier("IOError")).toEqual(["IO", "Error"]);
    expect(splitIdentifier("utf8ToString")).toEqual(["utf", "8", "To", "String"]);
  });
});

describe("tokenizeQuery (query side)", () => {
  it.each([
    ["how does the router match paths", ["router", "match", "paths"]],
    ["where is getUserById defined", ["getuserbyid", "user", "id"]],
    ["the", ["the"]],
    ["cache cache Cache", ["cache"]],
  ])("%j", (text, expected) => {
    expect(tokenizeQuery(text)).toEqual(expected);
  });

  it("expands 用户登录认证 into user, login and authentication", () => {
    const terms = tokenizeQuery("用户登录认证");
    expect(terms.slice(0, 5)).toEqual(["用户", "户登", "登录", "录认", "认证"]);
    for (const w of ["user", "login", "auth", "authentication"]) expect(terms).toContain(w);
  });

  it("prefers the longest term and expands mixed queries", () => {
    expect(tokenizeQuery("数据库错误")).toEqual(["数据", "据库", "库错", "错误", "database", "db", "error"]);
    expect(tokenizeQuery("Redis 缓存 配置")).toEqual(["redis", "缓存", "配置", "cache", "config", "configuration"]);
    expect(tokenizeQuery("ユーザー検索")).toContain("search");
  });

  it("has an expansion table of lowercase ASCII words", () => {
    expect(Object.keys(CJK_EXPANSIONS).length).toBeGreaterThanOrEqual(40);
    for (const words of Object.values(CJK_EXPANSIONS)) expect(words).toMatch(/^[a-z]+( [a-z]+)*$/);
  });

  it("does not expand on the index side", () => {
    expect(tokenize("用户")).toEqual(["用户"]);
  });
});
