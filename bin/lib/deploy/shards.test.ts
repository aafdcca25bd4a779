/** `node --test` (Node 22): `--shards N` declares shard databases and their Vectorize indexes in wrangler.toml once; the plan creates each index and migrates each shard. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "smol-toml";
import { PROJECT_ROOT } from "../paths.ts";
import { readDeployConfig } from "./config.ts";
import { emptyAccount, planDeploy } from "./plan.ts";
import { declaredShards, shardVectorIndexes, withShards } from "./shards.ts";

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

test("--shards 3 gives each shard its own Vectorize index, shard 0 keeping VECTORIZE; the plan creates the new ones with their metadata indexes", () => {
  const three = withShards(toml, 3, "codebase-copilot");
  const env = (parse(three) as { env: { production: { vars: Record<string, string>; vectorize: { binding: string; index_name: string }[] } } }).env.production;
  assert.equal(env.vars.VECTORIZE_BINDINGS, "VECTORIZE,VECTORIZE_1,VECTORIZE_2");
  assert.deepEqual(
    env.vectorize.map((v) => [v.binding, v.index_name]),
    [
      ["VECTORIZE", "codebase-copilot-chunks"],
      ["VECTORIZE_1", "codebase-copilot-chunks-shard-1"],
      ["VECTORIZE_2", "codebase-copilot-chunks-shard-2"],
    ],
  );
  assert.equal(withShards(three, 3, "codebase-copilot"), three);
  assert.match(withShards(three, 4, "codebase-copilot"), /VECTORIZE_BINDINGS = "VECTORIZE,VECTORIZE_1,VECTORIZE_2,VECTORIZE_3"/);
  const plan = planDeploy(readDeployConfig(three), emptyAccount(), {}, () => "s");
  assert.deepEqual(
    plan.steps.filter((s) => s.kind.startsWith("create-vectorize") || s.kind === "create-metadata-index").map((s) => `${s.kind} ${s.args[2]}`),
    [
      "create-vectorize codebase-copilot-chunks",
      "create-metadata-index codebase-copilot-chunks",
      "create-metadata-index codebase-copilot-chunks",
      "create-vectorize codebase-copilot-chunks-shard-1",
      "create-metadata-index codebase-copilot-chunks-shard-1",
      "create-metadata-index codebase-copilot-chunks-shard-1",
      "create-vectorize codebase-copilot-chunks-shard-2",
      "create-metadata-index codebase-copilot-chunks-shard-2",
      "create-metadata-index codebase-copilot-chunks-shard-2",
    ],
  );
});

test("shards declared before VECTORIZE_BINDINGS existed keep the shared index their vectors are in; new shards get their own", () => {
  const legacy = withShards(toml, 2, "codebase-copilot")
    .replace(/^VECTORIZE_BINDINGS = .*\n/m, "")
    .replace(/\n\[\[env\.production\.vectorize\]\]\nbinding = "VECTORIZE_1"[^[]*$/, "\n");
  assert.deepEqual(declaredShards(legacy), ["SHARD_0", "SHARD_1"]);
  assert.deepEqual(shardVectorIndexes(legacy, 3), ["VECTORIZE", "VECTORIZE", "VECTORIZE_2"]);
  const env = (parse(withShards(legacy, 3, "codebase-copilot")) as { env: { production: { vars: Record<string, string>; vectorize: { binding: string }[] } } })
    .env.production;
  assert.equal(env.vars.VECTORIZE_BINDINGS, "VECTORIZE,VECTORIZE,VECTORIZE_2");
  assert.deepEqual(
    env.vectorize.map((v) => v.binding),
    ["VECTORIZE", "VECTORIZE_2"],
  );
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
