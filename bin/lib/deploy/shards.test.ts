/** `node --test` (Node 22): `--shards N` declares shard databases in wrangler.toml once, and the plan migrates each. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "smol-toml";
import { PROJECT_ROOT } from "../paths.ts";
import { readDeployConfig } from "./config.ts";
import { emptyAccount, planDeploy } from "./plan.ts";
import { declaredShards, withShards } from "./shards.ts";

const toml = readFileSync(join(PROJECT_ROOT, "wrangler.toml"), "utf8");

test("the production config declares no shard: the catalog is the only one until --shards", () => {
  assert.deepEqual(declaredShards(toml), []);
  assert.deepEqual(readDeployConfig(toml).shards, []);
});

test("--shards 3 declares SHARD_0..2 and SHARD_BINDINGS; running it again changes nothing", () => {
  const three = withShards(toml, 3, "codebase-copilot");
  const env = (parse(three) as { env: { production: { vars: Record<string, string>; d1_databases: { binding: string; database_name: string }[] } } }).env
    .production;
  assert.equal(env.vars.SHARD_BINDINGS, "SHARD_0,SHARD_1,SHARD_2");
  assert.deepEqual(
    env.d1_databases.map((d) => [d.binding, d.database_name]),
    [
      ["DB", "codebase-copilot"],
      ["SHARD_0", "codebase-copilot-shard-0"],
      ["SHARD_1", "codebase-copilot-shard-1"],
      ["SHARD_2", "codebase-copilot-shard-2"],
    ],
  );
  assert.equal(withShards(three, 3, "codebase-copilot"), three);
  // The top level (npm start's two local shards) is untouched.
  assert.equal((parse(three) as { vars: Record<string, string> }).vars.SHARD_BINDINGS, "SHARD_0,SHARD_1");
  const four = withShards(three, 4, "codebase-copilot");
  assert.deepEqual(declaredShards(four), ["SHARD_0", "SHARD_1", "SHARD_2", "SHARD_3"]);
  assert.match(four, /SHARD_BINDINGS = "SHARD_0,SHARD_1,SHARD_2,SHARD_3"/);
  // Replaced in place: one line at the top level (npm start's), one in [env.production.vars].
  assert.equal(four.match(/^SHARD_BINDINGS = /gm)?.length, 2);
});

test("shards are never removed, and the count must be sensible", () => {
  const three = withShards(toml, 3, "codebase-copilot");
  assert.throws(() => withShards(three, 2, "codebase-copilot"), /already declares 3 shards; shards are never removed/);
  assert.throws(() => withShards(toml, 0, "codebase-copilot"), /--shards must be an integer in 1\.\.1000/);
});

test("the plan applies migrations to the catalog, then to every shard", () => {
  const plan = planDeploy(readDeployConfig(withShards(toml, 2, "codebase-copilot")), emptyAccount(), {}, () => "s");
  assert.deepEqual(
    plan.steps.filter((s) => s.kind === "migrate").map((s) => s.args[3]),
    ["DB", "SHARD_0", "SHARD_1"],
  );
});
