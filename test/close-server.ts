/**
 * Stops a loopback test server (the vitest globalSetup servers and the e2e scripts' ones) at
 * once: `close()` alone waits for every open connection to end, and the test Worker may still
 * hold some (keep-alive, or a request a test left waiting), which kept the run from exiting.
 */
import type { Server } from "node:http";

/** Stops accepting, drops every connection, and resolves when the server is closed. */
export function closeServer(server: Server | undefined): Promise<void> {
  if (!server?.listening) return Promise.resolve();
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
