/**
 * @module worker/auth/loopback
 *
 * The local provider only works on loopback: the request must be addressed to a loopback host
 * and, when the runtime reports a client address (`CF-Connecting-IP`: always on Cloudflare,
 * set by wrangler dev too), come from one. On Cloudflare's network the client address is never
 * loopback, so a deployed Worker with AUTH_PROVIDER=local refuses the admin-token login.
 */

/** RFC 8252 §7.3 loopback names: `localhost`, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether a request is addressed to, and (when known) sent from, loopback. */
export function isLoopbackRequest(request: Request): boolean {
  if (!isLoopbackHost(new URL(request.url).hostname)) return false;
  const client = request.headers.get("cf-connecting-ip");
  return client === null || isLoopbackHost(client) || client === "::ffff:127.0.0.1";
}
