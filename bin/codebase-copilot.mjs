#!/usr/bin/env node
/**
 * The installed `codebase-copilot` command (package.json "bin"; `npm link` puts it on PATH).
 * Plain JavaScript, so any Node can start it. The CLI itself is TypeScript
 * (bin/codebase-copilot.ts), which Node runs directly from 22.18 on (type stripping): on such a
 * Node it runs in this process; on an older one (e.g. a system Node 20) it runs on the
 * project's own Node 22, the `node` devDependency that `npm ci` installs in node_modules/node.
 * Exit code, stdin/stdout/stderr and signals pass through.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

/** First Node versions that strip TypeScript types without a flag. */
const STRIPS_TYPES = { 22: 18, 23: 6 };

const entry = fileURLToPath(new URL("./codebase-copilot.ts", import.meta.url));
const [major, minor] = process.versions.node.split(".").map(Number);
const strips = major > 23 || (major in STRIPS_TYPES && minor >= STRIPS_TYPES[major]);

if (strips) {
  await import(pathToFileURL(entry).href);
} else {
  const projectNode = fileURLToPath(new URL("../node_modules/node/bin/node", import.meta.url));
  if (!existsSync(projectNode)) {
    console.error(
      `error: codebase-copilot needs Node >= 22.18 (this is ${process.version}). ` +
        `Run "npm ci" in ${fileURLToPath(new URL("..", import.meta.url))} (it installs Node 22 for the project), or install Node 22.18 or later.`,
    );
    process.exit(5);
  }
  const child = spawn(projectNode, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (err) => {
    console.error(`error: could not start ${projectNode}: ${err.message}`);
    process.exit(5);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}
