/**
 * The scripted Anthropic Messages API server (test/messages-api-server.ts, started by
 * test/messages-api-setup.ts) as the ask and review tests use it: a key names the scenario the
 * server plays and keeps each test's requests apart; the server records what it was sent.
 */
import { env } from "cloudflare:test";
import { inject } from "vitest";
import type { Env } from "../../kernel/env";

/** Base URL of the scripted server on loopback. */
export const messagesApiUrl = (): string => inject("messagesApiUrl");

let n = 0;
/** A fresh API key that plays `scenario` (`<scenario>:<unique>`); `tag` names the test file in the server's log. */
export function keyFor(scenario: string, tag: string): string {
  return `${scenario}:${tag}-${++n}-${Math.random().toString(36).slice(2)}`;
}

/** What the scripted server received for `key`: the number of calls and each request body. */
export async function requestsOf(key: string): Promise<{ calls: number; requests: any[] }> {
  return (await (await fetch(`${messagesApiUrl()}/__requests?key=${encodeURIComponent(key)}`)).json()) as { calls: number; requests: any[] };
}

/** The test env pointed at the scripted server, with `vars` (e.g. ANTHROPIC_API_KEY) on top. */
export function envWith(vars: Record<string, string>): Env {
  return { ...env, ANTHROPIC_BASE_URL: messagesApiUrl(), ...vars } as Env;
}
