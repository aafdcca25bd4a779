/**
 * @module worker/auth/pages/csp
 *
 * The Content-Security-Policy of the server-rendered auth pages, and the one directive that
 * differs per page: `form-action`. Browsers apply `form-action` to the form's target and to
 * every redirect that follows the POST (Chromium does), so the consent page must name the exact
 * place its POST redirects to: the validated `redirect_uri` of the request being approved (a
 * loopback callback on any port, RFC 8252 §7.3, or an https URL), plus GitHub's authorize URL
 * when GitHub signs people in. Nothing broader: not `https:`, not `http:`.
 */

/**
 * A CSP source expression matching exactly one URL's origin and path (CSP3 §2.3.1 host-source;
 * query and fragment are not part of a source). `;` and `,` in the path are percent-encoded, as
 * CSP3 requires. IPv6 literal hosts (`http://[::1]:port/...`) cannot be written as a host-source,
 * so for those the scheme alone is returned: the only case broader than one URL. A private-use
 * scheme (RFC 8252 §7.1) has no host and is named by its scheme.
 * @example formActionSource("http://127.0.0.1:33418/callback?x=1") // "http://127.0.0.1:33418/callback"
 * @throws TypeError when `url` is not an absolute URL
 */
export function formActionSource(url: string): string {
  const u = new URL(url);
  // No host (a native app's private-use scheme, `com.example.app:/cb`): a scheme-source is exact.
  if (u.hostname.startsWith("[") || u.host === "") return u.protocol;
  const path = u.pathname.replace(/;/g, "%3B").replace(/,/g, "%2C");
  return `${u.protocol}//${u.host}${path}`;
}

/**
 * The policy: nothing loads but inline styles, no framing, forms post to this origin and to the
 * `formAction` sources given (see `formActionSource`).
 */
export function authPagePolicy(formAction: readonly string[] = []): string {
  return `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...formAction].join(" ")}; frame-ancestors 'none'`;
}
