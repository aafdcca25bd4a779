/**
 * @module scripts/lib/bench-queries
 *
 * Queries for the latency benchmark on hono's tree: short queries (identifiers and short
 * phrases, what an agent types) and pasted bug reports (several hundred words with a stack
 * trace, what an agent pastes). Written for this benchmark; they measure speed, not quality.
 */

/** Short queries. */
export const SHORT_QUERIES: string[] = [
  "getCookie",
  "compress middleware gzip",
  "basic auth middleware",
  "how are route parameters parsed",
  "jwt verify signature",
  "cors preflight response headers",
  "streamSSE",
  "context json response",
  "validator for json body",
  "RegExpRouter",
  "serve static files",
  "secure headers middleware",
  "etag middleware",
  "request timeout",
  "escape html in jsx",
  "cache control header",
  "parse form data body",
  "websocket upgrade",
  "bearer token",
  "not found handler",
];

/** Pasted bug reports. */
export const BUG_REPORTS: string[] = [
  `Bug: c.req.param() returns undefined for optional parameter after a wildcard route

What version of Hono are you using? 4.6.x on Cloudflare Workers.

I register two routes:

  app.get('/api/:version?/users/*', handler)
  app.get('/api/v2/users/:id', other)

When I request /api/users/42 the first handler runs but c.req.param('version') is undefined and
c.req.param() (all params) is an empty object, although the docs say optional parameters are
returned as undefined keys. With the RegExpRouter the result differs from the TrieRouter: the
TrieRouter returns { version: undefined } while the SmartRouter picks RegExpRouter and returns {}.

Steps to reproduce: create a new app with the default router, add the routes above, call
app.request('/api/users/42'). Expected: the same params object with both routers.

Stack trace when I then call decodeURIComponent on the param:

TypeError: Cannot read properties of undefined (reading 'length')
    at tryDecode (src/utils/url.ts:120:13)
    at HonoRequest.param (src/request.ts:85:21)
    at handler (src/index.ts:14:30)
    at dispatch (src/compose.ts:51:23)`,

  `Cookies with Max-Age and Partitioned are serialized in the wrong order and Chrome ignores them

Setting a cookie with setCookie(c, 'session', value, { maxAge: 3600, partitioned: true, secure: true,
sameSite: 'None', path: '/' }) produces a Set-Cookie header where Partitioned appears before Secure,
and when maxAge is larger than 400 days an error is thrown even though I pass a number of seconds.
Also deleteCookie does not keep the domain and path options, so the browser keeps the old cookie.

Error: Cookies Max-Age SHOULD NOT be greater than 400 days (34560000 seconds) in duration.
    at _serialize (src/utils/cookie.ts:182:15)
    at serialize (src/utils/cookie.ts:230:10)
    at setCookie (src/helper/cookie/index.ts:96:18)

Expected: the attribute order should not matter, Partitioned requires Secure, and deleteCookie should
pass through path and domain. Environment: Bun 1.1, hono 4.5.`,

  `CORS middleware does not answer preflight OPTIONS requests when origin is a function

We configure cors({ origin: (origin, c) => origin.endsWith('.example.com') ? origin : null,
allowMethods: ['GET', 'POST', 'PUT'], credentials: true, maxAge: 600 }). Simple GET requests get the
Access-Control-Allow-Origin header, but the browser's preflight OPTIONS for a PUT with a JSON body
gets a 404 Not Found from the router, without Access-Control-Allow-Methods or Allow-Headers.
Vary: Origin is also missing on the non-preflight response, so our CDN caches the header for the
first origin only. When credentials is true and origin is '*', the spec says the header must echo the
request origin, but the middleware sends '*'. Logs:

[wrangler:inf] OPTIONS /api/items/7 404 Not Found (3ms)
Access to fetch at 'https://api.example.com/api/items/7' from origin 'https://app.example.com' has been
blocked by CORS policy: Response to preflight request doesn't pass access control check.`,

  `Streaming response stops after first chunk when the client aborts, and onAbort is never called

Using streamSSE(c, async (stream) => { while (true) { await stream.writeSSE({ data: ..., event: 'tick' });
await stream.sleep(1000) } }) on Node with @hono/node-server. When the browser tab is closed, the loop
keeps running forever and memory grows; stream.onAbort(() => ...) callback never fires. With
stream() instead of streamSSE the same happens. Also an exception thrown inside the callback is
swallowed and the response just ends without an error event.

Uncaught (in promise) TypeError: Invalid state: WritableStream is closed
    at StreamingApi.write (src/utils/stream.ts:38:27)
    at StreamingApi.writeSSE (src/helper/streaming/sse.ts:17:16)
    at file:///app/server.js:22:24

Expected: aborting the request should resolve the stream, call onAbort handlers and stop writes.`,

  `Validator middleware: zod errors return 400 with an empty body, and form validation drops arrays

app.post('/posts', validator('form', (value, c) => { const parsed = schema.safeParse(value); if (!parsed.success)
return c.json(parsed.error, 400); return parsed.data }), handler). When a multipart form has repeated
fields tags[]=a&tags[]=b the validator receives only the last value, because parseBody is called without
{ all: true }. When the content-type header includes a charset (application/x-www-form-urlencoded;
charset=UTF-8) the form target is skipped and the value is an empty object. For the json target, a
request without Content-Type: application/json should fail with a clear message, but instead c.req.valid('json')
returns {} and the handler crashes:

TypeError: Cannot destructure property 'title' of 'c.req.valid(...)' as it is undefined.
    at handler (src/routes/posts.ts:31:11)
    at dispatch (src/compose.ts:51:23)
    at validator (src/validator/validator.ts:98:17)`,

  `JWT middleware accepts a token signed with a different algorithm and ignores nbf

jwt({ secret: 'it-is-very-secret', alg: 'HS256' }) accepts tokens whose header says alg: none? No, but a
token with header alg HS512 signed with the same secret is accepted, although I configured HS256. Also a
token whose nbf (not before) claim is one hour in the future is accepted; exp is checked correctly. When
the Authorization header is "Bearer" without a token, the middleware throws a 500 instead of 401:

HTTPException: Unauthorized
    at verify (src/utils/jwt/jwt.ts:101:11)
    at jwt (src/middleware/jwt/jwt.ts:73:19)
Error: invalid JWT token: undefined
    at decode (src/utils/jwt/jwt.ts:140:9)

Expected: reject mismatched alg with JwtAlgorithmMismatch, check nbf and iat, and answer 401 with
WWW-Authenticate for a malformed header, also when the token comes from a cookie.`,
];
