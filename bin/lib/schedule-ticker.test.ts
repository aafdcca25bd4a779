/**
 * `node --test`: npm start's local Cron Trigger calls wrangler's `/__scheduled` with the cron
 * expression when it fires, and stops when told; the expressions come from wrangler.toml.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { configuredCrons, startTicker } from "./schedule-ticker.ts";

test("wrangler.toml's crons are what npm start runs", () => {
  assert.deepEqual(configuredCrons(), ["*/5 * * * *"]);
});

test("each firing calls /__scheduled?cron=<expr>; stop() ends it", async () => {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const lines: string[] = [];
  const every = "* * * * * *"; // croner's seconds field: every second
  const ticker = startTicker(base, [every], (l) => lines.push(l));
  try {
    const next = ticker.next();
    assert.ok(next !== null && next > Date.now() - 1000 && next <= Date.now() + 1000, `next tick within a second: ${next}`);
    for (let i = 0; i < 100 && hits.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(hits[0], `/__scheduled?cron=${encodeURIComponent(every)}`);
    assert.deepEqual(lines, []);
  } finally {
    ticker.stop();
  }
  const after = hits.length;
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(hits.length, after, "no tick after stop()");
  assert.equal(ticker.next(), null);
  server.close();
});
