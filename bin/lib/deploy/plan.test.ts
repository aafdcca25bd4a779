/** `node --test` (Node 22): deployment planning from a given account state, without an account. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PROJECT_ROOT } from "../paths.ts";
import { readDeployConfig, VECTORIZE_METADATA_INDEXES } from "./config.ts";
import { deployedUrl, emptyAccount, endpoints, planDeploy, type AccountState } from "./plan.ts";
import { jsonIn } from "./state.ts";

const config = readDeployConfig(readFileSync(join(PROJECT_ROOT, "wrangler.toml"), "utf8"));
const secret = () => "generated-secret";

function fullAccount(): AccountState {
  const s = emptyAccount();
  for (const q of config.queues) s.queues.add(q);
  for (const v of config.vectorize) {
    s.vectorize.set(v.name, { dimensions: v.dimensions, metric: "cosine" });
    s.metadataIndexes.set(v.name, new Set(VECTORIZE_METADATA_INDEXES.map((m) => m.property)));
  }
  for (const n of ["SIGNING_SECRET", "GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET"]) s.secrets.add(n);
  return s;
}

test("the production config names both queues, the DLQ included, and the Vectorize dimensions", () => {
  assert.deepEqual(config.queues, ["codebase-copilot-index", "codebase-copilot-index-dlq"]);
  assert.deepEqual(config.vectorize, [{ binding: "VECTORIZE", name: "codebase-copilot-chunks", dimensions: 1024, metric: "cosine" }]);
  // D1 and KV are left to wrangler's automatic provisioning: no placeholder ids.
  assert.equal(config.d1.hasId, false);
  assert.equal(config.kv.hasId, false);
  assert.equal(config.authProvider, "github");
});

test("an empty account gets every resource, metadata indexes before the deploy, migrations last", () => {
  const plan = planDeploy(config, emptyAccount(), {}, secret);
  assert.deepEqual(
    plan.steps.map((s) => s.kind),
    ["create-queue", "create-queue", "create-vectorize", "create-metadata-index", "create-metadata-index", "deploy", "migrate"],
  );
  assert.deepEqual(plan.steps[2].args, ["vectorize", "create", "codebase-copilot-chunks", "--dimensions=1024", "--metric=cosine"]);
  assert.deepEqual(plan.steps.at(-1)!.args, ["d1", "migrations", "apply", "DB", "--env", "production", "--remote"]);
  assert.deepEqual(plan.secretValues, { SIGNING_SECRET: "generated-secret" });
  assert.ok(plan.notes.some((n) => n.includes("GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET")));
});

test("re-running against what the first run created creates nothing and keeps SIGNING_SECRET", () => {
  const plan = planDeploy(config, fullAccount(), {}, () => assert.fail("must not generate a secret that exists"));
  assert.deepEqual(
    plan.steps.map((s) => s.kind),
    ["deploy", "migrate"],
  );
  assert.deepEqual(plan.secretValues, {});
  assert.equal(plan.steps[0].secrets, undefined);
});

test("secrets given as flags are uploaded with the deploy, never placed in the command line", () => {
  const plan = planDeploy(config, fullAccount(), { GITHUB_CLIENT_SECRET: "s3cr3t", ANTHROPIC_API_KEY: "k" }, secret);
  const deploy = plan.steps.find((s) => s.kind === "deploy")!;
  assert.deepEqual(deploy.secrets, ["ANTHROPIC_API_KEY", "GITHUB_CLIENT_SECRET"]);
  assert.ok(!deploy.args.join(" ").includes("s3cr3t"));
});

test("a partly provisioned account gets only the missing pieces", () => {
  const s = fullAccount();
  s.queues.delete("codebase-copilot-index-dlq");
  s.metadataIndexes.set("codebase-copilot-chunks", new Set(["language"]));
  const kinds = planDeploy(config, s, {}, secret).steps.map((x) => `${x.kind}:${x.args[2] ?? ""}:${x.args[3] ?? ""}`);
  assert.deepEqual(kinds, [
    "create-queue:codebase-copilot-index-dlq:",
    "create-metadata-index:codebase-copilot-chunks:--propertyName=path",
    "deploy:production:",
    "migrate:apply:DB",
  ]);
});

test("a Vectorize index of other dimensions stops the plan with what to do", () => {
  const s = fullAccount();
  s.vectorize.set("codebase-copilot-chunks", { dimensions: 768, metric: "cosine" });
  assert.throws(() => planDeploy(config, s, {}, secret), /has 768 dimensions .* EMBEDDING_DIMENSIONS is 1024/);
});

test("a config without the production environment is an error naming it", () => {
  assert.throws(() => readDeployConfig('name = "x"\n'), /no \[env\.production\] table/);
});

test("the deployed URL and the printed endpoints", () => {
  const out =
    "Uploaded codebase-copilot (3.1 sec)\nDeployed codebase-copilot triggers (0.4 sec)\n  https://codebase-copilot.acme.workers.dev\nCurrent Version ID: 1";
  const url = deployedUrl(out)!;
  assert.equal(url, "https://codebase-copilot.acme.workers.dev");
  const e = endpoints(url);
  assert.equal(e.mcp, "https://codebase-copilot.acme.workers.dev/mcp");
  assert.equal(e.claudeAdd, "claude mcp add --transport http codebase-copilot https://codebase-copilot.acme.workers.dev/mcp");
  // The callback the GitHub OAuth app must register is the Worker's own (worker/auth/github.ts).
  const github = readFileSync(join(PROJECT_ROOT, "worker/auth/github.ts"), "utf8");
  assert.ok(github.includes(`GITHUB_CALLBACK_PATH = "${new URL(e.githubCallback).pathname}"`));
});

test("wrangler's JSON is found after its banner lines", () => {
  assert.deepEqual(jsonIn(' ⛅️ wrangler 4.156.2\n───\n[{"name":"SIGNING_SECRET","type":"secret_text"}]\n'), [{ name: "SIGNING_SECRET", type: "secret_text" }]);
});
