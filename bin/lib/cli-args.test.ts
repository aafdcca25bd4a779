/** `node --test bin/lib/cli-args.test.ts` (Node 22): argument errors and the running-server hints. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addToRunningServer, parseCliArgs, shellQuote } from "./cli-args.ts";

test("an unknown option is an error message, not a throw", () => {
  const r = parseCliArgs(["--bogus"], "8787");
  assert.ok("error" in r);
  assert.match(r.error, /unknown option '--bogus'/);
  assert.doesNotMatch(r.error, /\n/);
});

test("a missing option value and two sources are errors", () => {
  assert.ok("error" in parseCliArgs(["--port"], "8787"));
  const two = parseCliArgs(["a", "b"], "8787");
  assert.ok("error" in two && /too many arguments/.test(two.error));
});

test("parses options and the source", () => {
  assert.deepEqual(parseCliArgs(["../x", "--name", "x", "--port", "9000"], "8787"), { port: "9000", name: "x", ref: undefined, help: false, source: "../x" });
  assert.deepEqual(parseCliArgs([], "8799"), { port: "8799", name: undefined, ref: undefined, help: false, source: undefined });
});

test("the running-server hint is a curl line for the folder, quoted for the shell", () => {
  const [folder, git] = addToRunningServer("http://127.0.0.1:8787", "/p/.codebase-copilot/admin-token", { dir: "/home/me/My App", id: "my-app" });
  assert.equal(
    folder,
    `tar czf - -C '/home/me/My App' . | curl -s -H "Authorization: Bearer $(cat /p/.codebase-copilot/admin-token)" --data-binary @- 'http://127.0.0.1:8787/api/repos/my-app/archive?strip=0'`,
  );
  assert.match(git, /-d '\{"url": "<git-url>"\}' http:\/\/127\.0\.0\.1:8787\/api\/repos$/);
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});
