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

test("the running-server hint is the CLI's index command for the folder, quoted for the shell", () => {
  const cli = "/p/bin/codebase-copilot.mjs";
  const [folder, git] = addToRunningServer(cli, { dir: "/home/me/My App", id: "my-app" });
  assert.equal(folder, `node /p/bin/codebase-copilot.mjs index '/home/me/My App' --name my-app --wait`);
  assert.equal(git, "node /p/bin/codebase-copilot.mjs index <git-url> --wait");
  assert.deepEqual(addToRunningServer(cli, { url: "https://example.com/a.git" })[1], "node /p/bin/codebase-copilot.mjs index https://example.com/a.git --wait");
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
});
