/**
 * Runs the real MCP Inspector CLI (`@modelcontextprotocol/inspector`, pinned in devDependencies)
 * against a live `/mcp` endpoint: `tools/list --strict --format json`, which lints every tool's
 * input and output schema for portability (e.g. to the OpenAPI/Gemini dialect). The issue #51
 * acceptance is "no error and no warning", but `--strict` exits non-zero (6) only on errors, so
 * the findings are read from the JSON envelope's `schemaFindings` instead.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** One tool's findings as the Inspector reports them (severity "error" or "warning"). */
export interface InspectorFinding {
  toolName: string;
  findings: { severity: string; schema?: string; path?: unknown; issue: string; suggestion?: string }[];
}

/** What the strict run returned: the tool names it listed and every finding. */
export interface InspectorStrictResult {
  toolNames: string[];
  findings: InspectorFinding[];
}

const require = createRequire(import.meta.url);
/** The package's `mcp-inspector` bin (the launcher; `--cli` selects the CLI client). */
const LAUNCHER = join(dirname(require.resolve("@modelcontextprotocol/inspector/package.json")), "clients", "launcher", "build", "index.js");

/**
 * Lists the tools at `mcpUrl` with the Inspector CLI in strict mode, sending `token` as a bearer
 * token, and returns the tools and findings. The token goes in a mode-600 session config file
 * (`--config`, read-only for the Inspector), not argv; HOME and the Inspector's client
 * config and secret store point into a throw-away folder so no user state is read or written.
 * `--stored-auth-only`: a rejected token fails the run instead of starting an interactive OAuth
 * sign-in. Runs on this process's Node; only `mcpUrl` is contacted. Throws, with everything the
 * CLI printed, if it exits non-zero or prints no JSON result; `timeoutMs` bounds the run.
 */
export async function inspectorStrictToolsList(mcpUrl: string, token: string, timeoutMs = 60_000): Promise<InspectorStrictResult> {
  const home = mkdtempSync(join(tmpdir(), "ccp-inspector-"));
  try {
    const config = join(home, "session.json");
    const server = { type: "streamable-http", url: mcpUrl, headers: { Authorization: `Bearer ${token}` } };
    writeFileSync(config, JSON.stringify({ mcpServers: { "codebase-copilot": server } }), { mode: 0o600 });
    const args = [
      LAUNCHER,
      "--cli",
      "--config",
      config,
      "--server",
      "codebase-copilot",
      "--method",
      "tools/list",
      "--strict",
      "--format",
      "json",
      "--stored-auth-only",
    ];
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      MCP_CLIENT_CONFIG_PATH: join(home, "client.json"),
      MCP_INSPECTOR_SECRET_STORE: "memory",
    };
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, args, { env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, out, errOut) => {
        const exit = err ? (typeof err.code === "number" ? err.code : null) : 0;
        resolve({ code: exit, stdout: out, stderr: errOut });
      });
    });
    const printed = `exit code ${code}\n--- stderr ---\n${stderr}\n--- stdout (first 1000 characters) ---\n${stdout.slice(0, 1000)}`;
    if (code !== 0) throw new Error(`MCP Inspector CLI --strict failed:\n${printed}`);
    let envelope: { result?: { tools?: { name: string }[] }; schemaFindings?: InspectorFinding[] };
    try {
      envelope = JSON.parse(stdout) as typeof envelope;
    } catch {
      throw new Error(`MCP Inspector CLI printed no JSON result:\n${printed}`);
    }
    const toolNames = (envelope.result?.tools ?? []).map((t) => t.name);
    if (toolNames.length === 0) throw new Error(`MCP Inspector CLI listed no tools:\n${printed}`);
    return { toolNames, findings: envelope.schemaFindings ?? [] };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The findings as text, one block per finding (tool, schema, path, issue, suggestion). */
export function formatFindings(findings: InspectorFinding[]): string {
  return findings
    .flatMap(({ toolName, findings: list }) =>
      list.map(
        (f) => `${f.severity}: tool "${toolName}", ${f.schema ?? "schema"} at ${JSON.stringify(f.path)}\n  ${f.issue}\n  Suggestion: ${f.suggestion ?? "-"}`,
      ),
    )
    .join("\n");
}
