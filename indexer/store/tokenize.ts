/**
 * @module indexer/store/tokenize
 *
 * The one code-aware tokenizer, shared by the index side (FTS rows) and the query side (MATCH
 * expressions). Postings only work while both sides tokenize exactly alike, so this module is
 * part of the storage contract: changing its output needs a CHUNK_FORMAT_VERSION bump.
 *
 *   getUserById  -> getuserbyid get user by id
 *   snake_case   -> snakecase snake case
 *   src/app.ts   -> src app ts
 *   HTTP2Server  -> http2server http 2 server http2
 *   isProxyEventV2 -> isproxyeventv2 is proxy event v 2 v2
 *   用户登录      -> 用户 户登 登录            (CJK runs: overlapping bigrams)
 *
 * The query side also expands CJK terms into English programming words (CJK_EXPANSIONS), so
 * 用户登录认证 reaches code about user login and authentication. Expansion is query-only: it
 * never changes index rows, so editing the table needs no format bump.
 */

// With its extension: Node scripts (evals/lib/bm25.ts, scripts/lib/ripgrep.ts) import this module directly.
import { forEachIdentRun } from "./ident-runs.ts";

const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Words dropped from natural-language queries (never from the index): English function words
 * (the NLTK English stop list, which follows the SMART list's core), question fillers, and words
 * every question about code uses. Natural-language words are rare in code, so BM25 gives these
 * a high IDF they do not deserve (measured in docs/ranking.md, "Query terms": "s", "re", "already",
 * "another" outranked the words that named the code).
 */
const QUERY_STOP_WORDS = new Set(
  (
    "a an and are as at be by can do does for from how i in into is it its of on or that the this to " +
    "was what when where which who why will with where's what's there their them then than we you your " +
    "my me our us should would could may might must have has had been being not no yes code file files " +
    "find show get me please function functions method methods implemented implementation defined " +
    // NLTK English stop words not listed above.
    "myself ours ourselves yours yourself yourselves he him his himself she her hers herself itself they " +
    "theirs themselves whom these those am were having did doing but if because until while about against " +
    "between through during above below up down out off over under again further once here both each few " +
    "more most other some such nor only own same so too very just don now whose whether also any " +
    // Question fillers.
    "happen happens happening actually exactly really someone something somewhere anything everything " +
    "logic place part piece way ways i.e e.g etc"
  ).split(" "),
);

/** Query tokens shorter than this are dropped (the `s` of "client's", the `v` of "v2"). CJK unigrams stay. */
const MIN_QUERY_TOKEN_CHARS = 2;

/** Splits one identifier at camelCase, PascalCase, acronym, digit and `_`/`$` boundaries. */
export function splitIdentifier(word: string): string[] {
  return word
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .replace(/(\p{N})(\p{L})/gu, "$1 $2")
    .split(/[\s_$]+/)
    .filter(Boolean);
}

/** Overlapping character bigrams of a CJK run (a single character stays a unigram). */
function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/** A word of lowercase ASCII letters only: no CJK, no identifier boundary, already lowercase. */
const LOWER_WORD_RE = /^[a-z]+$/;

/**
 * Tokens of words seen before, by word. Code repeats its identifiers (a chunk names the same
 * few dozen over and over, a repo a few thousand), and splitting one costs four regex passes:
 * the splitting was the largest part of tokenizing a chunk (docs/indexing-speed.md, "Where the time
 * goes"). Bounded: emptied when it passes WORD_CACHE_MAX words (about 4 MB at most).
 */
const wordCache = new Map<string, readonly string[]>();
const WORD_CACHE_MAX = 20_000;

function pushWord(word: string, out: string[]): void {
  // The common case in prose (most words of a pasted report) skips the splitting below, whose
  // result for such a word is the word itself: a profiled third of a report's query parsing.
  if (LOWER_WORD_RE.test(word)) {
    out.push(word);
    return;
  }
  let tokens = wordCache.get(word);
  if (!tokens) {
    // A matched word of 13 or more characters is a slice that keeps its whole text alive (V8's
    // sliced strings): the cache keeps a copy, and its tokens are cut from that copy.
    const own = word.length > 12 ? Array.from(word).join("") : word;
    const fresh: string[] = [];
    splitWord(own, fresh);
    if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
    wordCache.set(own, (tokens = fresh));
  }
  for (const t of tokens) out.push(t);
}

/** The tokens of one word that is not all lowercase ASCII letters (pushWord's slow path). */
function splitWord(word: string, out: string[]): void {
  if (CJK_RE.test(word)) {
    for (const run of word.match(CJK_RUN_RE) ?? []) out.push(...cjkBigrams(run));
    const rest = word.replace(CJK_RUN_RE, " ").trim();
    if (rest) for (const w of rest.split(/\s+/)) pushWord(w, out);
    return;
  }
  const parts = splitIdentifier(word);
  // `_`/`$` are separators for FTS5 unicode61, so the whole form drops them.
  const whole = word.toLowerCase().replace(/[_$]/g, "");
  if (whole) out.push(whole);
  if (parts.length > 1) {
    for (const p of parts) out.push(p.toLowerCase());
    // A version or size suffix stays readable whole too: `isProxyEventV2` -> `v2`,
    // `HTTP2Server` -> `http2`, `base64Encode` -> `base64` (the words a question writes).
    for (let i = 0; i + 1 < parts.length; i++) {
      if (/^\p{L}+$/u.test(parts[i]) && /^\p{N}+$/u.test(parts[i + 1])) {
        const joined = (parts[i] + parts[i + 1]).toLowerCase();
        if (joined !== whole) out.push(joined);
      }
    }
  }
}

/**
 * Index-side tokenization: every identifier in full (lowercased) followed by its parts when it
 * has more than one. Output tokens contain only letters and digits, so FTS5's unicode61
 * tokenizer keeps each one whole.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachIdentRun(text, (word, lowerAscii) => (lowerAscii ? out.push(word) : pushWord(word, out)));
  return out;
}

/**
 * Chinese (simplified and traditional), Japanese and Korean programming terms and the English
 * words code uses for them. Query-side only. Longer terms win over the terms inside them
 * (数据库 before 数据).
 */
export const CJK_EXPANSIONS: Readonly<Record<string, string>> = {
  用户: "user",
  使用者: "user",
  登录: "login signin",
  登入: "login signin",
  登出: "logout signout",
  注销: "logout",
  注册: "register signup",
  认证: "auth authentication authenticate",
  認證: "auth authentication authenticate",
  鉴权: "auth authorization authorize",
  授权: "auth authorization authorize oauth",
  权限: "permission scope role",
  令牌: "token",
  密码: "password",
  密碼: "password",
  会话: "session",
  搜索: "search query",
  查询: "query search",
  检索: "search retrieve",
  文件: "file",
  檔案: "file",
  目录: "directory dir folder",
  路径: "path",
  配置: "config configuration",
  设置: "settings config",
  数据库: "database db",
  資料庫: "database db",
  数据: "data",
  表: "table",
  错误: "error",
  錯誤: "error",
  异常: "exception error",
  请求: "request",
  請求: "request",
  响应: "response",
  回應: "response",
  缓存: "cache",
  快取: "cache",
  路由: "route router",
  接口: "interface api endpoint",
  函数: "function",
  方法: "method",
  类: "class",
  变量: "variable",
  参数: "param parameter argument",
  日志: "log logger logging",
  测试: "test",
  队列: "queue",
  索引: "index",
  上传: "upload",
  下载: "download",
  删除: "delete remove",
  创建: "create",
  更新: "update",
  解析: "parse parser",
  分块: "chunk",
  嵌入: "embed embedding",
  向量: "vector",
  仓库: "repo repository",
  提交: "commit",
  分支: "branch",
  加密: "encrypt crypto",
  哈希: "hash",
  超时: "timeout",
  重试: "retry",
  限流: "rate limit",
  ユーザー: "user",
  ログイン: "login",
  検索: "search",
  設定: "config settings",
  認証: "auth authentication",
  사용자: "user",
  로그인: "login",
  검색: "search",
  인증: "auth authentication",
  설정: "config settings",
};

const CJK_TERMS = Object.keys(CJK_EXPANSIONS).sort((a, b) => b.length - a.length);

/** English words for the CJK terms found in `text`, longest match first, left to right. */
function expandCjk(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(CJK_RUN_RE) ?? []) {
    let i = 0;
    while (i < run.length) {
      const term = CJK_TERMS.find((t) => run.startsWith(t, i));
      if (term) {
        out.push(...CJK_EXPANSIONS[term].split(" "));
        i += term.length;
      } else i++;
    }
  }
  return out;
}

/** Whether `token` (a lowercased token) is one of the words natural-language queries drop (QUERY_STOP_WORDS). */
export function isQueryStopWord(token: string): boolean {
  return QUERY_STOP_WORDS.has(token);
}

/**
 * Query-side tokenization: as `tokenize`, minus stop words, plus the English expansion of CJK
 * terms, deduplicated in first-seen order. A query made only of stop words keeps them, so it
 * still matches something. `all`: `tokenize(text)`, when the caller has it already.
 *
 * @example tokenizeQuery("用户登录认证") // ["用户", "户登", "登录", "录认", "认证", "user", "login", "signin", "auth", ...]
 */
export function tokenizeQuery(text: string, all: string[] = tokenize(text)): string[] {
  const kept = all.filter((t) => !QUERY_STOP_WORDS.has(t) && (t.length >= MIN_QUERY_TOKEN_CHARS || CJK_RE.test(t)));
  const expanded = CJK_RE.test(text) ? expandCjk(text) : [];
  return [...new Set([...(kept.length ? kept : all), ...expanded])];
}
