/**
 * Vitest `globalSetup` (Node): starts the scripted Anthropic Messages API server
 * (test/messages-api-server.ts) on loopback; tests read its URL with `inject("messagesApiUrl")`.
 */
import { startMessagesApiServer } from "./messages-api-server.ts";

export default async function setup({ provide }: { provide: (key: "messagesApiUrl", value: string) => void }): Promise<() => Promise<void>> {
  const server = await startMessagesApiServer();
  provide("messagesApiUrl", server.url);
  return () => server.close();
}
