/**
 * A hint for a webhook payload URL that a code host cannot reach: one on a loopback address
 * (`npm start` serves on 127.0.0.1), which GitHub's and GitLab's servers can never deliver to.
 */

/** Host names that only this machine reaches. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

/** What to use instead when `url`'s host is loopback; null when the code host may reach it. */
export function loopbackHint(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  if (!LOOPBACK.test(host) && !host.toLowerCase().endsWith(".localhost")) return null;
  return (
    `${host} is this machine: GitHub and GitLab cannot deliver to it. Use the deployed server's URL (npm run deploy), ` +
    "or expose this server with a tunnel (e.g. cloudflared tunnel --url, ngrok) and use the tunnel's https URL with the same path. " +
    "Without a webhook, scheduled checks still pick up pushes (every 5 minutes)."
  );
}
