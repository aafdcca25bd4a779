/**
 * Which hosts the git source may connect to (the SSRF guard). Pure.
 *
 * A user-supplied git URL must not reach the service's own network: loopback, private
 * (RFC 1918), link-local (169.254.0.0/16, fe80::/10, cloud metadata endpoints), CGNAT
 * (100.64.0.0/10), unique-local (fc00::/7), unspecified, multicast, broadcast and the other
 * special-purpose ranges. Addresses are parsed by ipaddr.js, so every spelling counts: the
 * WHATWG URL parser already turns `2130706433`, `0x7f.1`, `0177.0.0.1` and `127.1` into
 * `127.0.0.1`, and `ipaddr.process` unwraps IPv4-mapped IPv6 (`[::ffff:127.0.0.1]`).
 * IPv6 forms that embed an IPv4 address (IPv4-compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`,
 * NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo) take the class of the address they embed
 * when that one is not public, and are `reserved` otherwise; any other IPv6 address is public
 * only inside global unicast `2000::/3` (RFC 4291), so a deprecated or unassigned range never
 * passes as public because ipaddr.js has no name for it.
 *
 * Only IP literals and a few reserved names can be judged here: Workers have no DNS lookup, so
 * a public name that resolves to a private address is stopped by Cloudflare's
 * `global_fetch_strictly_public` compatibility flag in production (wrangler.toml), not here.
 */
import ipaddr from "ipaddr.js";

/** Where a host points. `public` is the only class fetched by default. */
export type HostClass =
  "public" | "loopback" | "private" | "link_local" | "cgnat" | "unique_local" | "unspecified" | "multicast" | "broadcast" | "reserved" | "invalid";

/** ipaddr.js range names -> our classes. Anything not listed (and not `unicast`) is `reserved`. */
const RANGE_CLASS: Readonly<Record<string, HostClass>> = {
  unicast: "public",
  loopback: "loopback",
  private: "private",
  linkLocal: "link_local",
  carrierGradeNat: "cgnat",
  uniqueLocal: "unique_local",
  unspecified: "unspecified",
  multicast: "multicast",
  broadcast: "broadcast",
};

/** Global unicast, the only IPv6 space that can be public (RFC 4291 section 2.4). */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
/** NAT64's well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");
/** IPv4-compatible IPv6 (RFC 4291 section 2.5.5.1, deprecated): `::a.b.c.d`. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

function ipv4Of(parts: readonly number[], at: number): ipaddr.IPv4 {
  const [hi, lo] = [parts[at]!, parts[at + 1]!];
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * The IPv4 address an IPv6 address carries by a translation or tunnel scheme, or null. Called
 * only for ranges other than `::`, `::1` and the named special ones, which keep their own class.
 */
function embeddedIpv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = addr.parts;
  const range = addr.range();
  if (range === "rfc6145" || addr.match(NAT64_WELL_KNOWN) || addr.match(IPV4_COMPATIBLE)) return ipv4Of(p, 6);
  if (range === "6to4") return ipv4Of(p, 1);
  // Teredo (RFC 4380): the client's address, bit-inverted, in the last 32 bits.
  if (range === "teredo") return ipv4Of([p[6]! ^ 0xffff, p[7]! ^ 0xffff], 0);
  return null;
}

/** IPv6 ranges (ipaddr.js names) that may embed an IPv4 address; `unicast` covers `::a.b.c.d`. */
const EMBEDDING_RANGES = new Set(["unicast", "rfc6145", "rfc6052", "6to4", "teredo"]);

function classifyIp(addr: ipaddr.IPv4 | ipaddr.IPv6): HostClass {
  const cls = RANGE_CLASS[addr.range()] ?? "reserved";
  if (addr.kind() === "ipv4" || !EMBEDDING_RANGES.has(addr.range())) return cls;
  const v6 = addr as ipaddr.IPv6;
  const inner = embeddedIpv4(v6);
  if (inner) {
    const innerCls = classifyIp(inner);
    // A public IPv4 behind a translator is still not a plain public host: refused as before.
    return innerCls === "public" ? "reserved" : innerCls;
  }
  return cls === "public" && v6.match(GLOBAL_UNICAST_V6) ? "public" : "reserved";
}

/** Names that never denote a public host (RFC 6761 `localhost`, mDNS `.local`, private-use TLDs). */
const LOOPBACK_NAME = /^(localhost|.+\.localhost)\.?$/i;
const PRIVATE_NAME = /(^|\.)(local|localdomain|internal|intranet|lan|home\.arpa)\.?$/i;

/**
 * Classifies a URL host (`URL.hostname`: IPv6 in brackets, IPv4 already normalised by the URL
 * parser; a raw spelling such as `0x7f.1` is accepted too). Names other than the reserved
 * ones are `public`: see the module note for how production covers what they resolve to.
 * @example classifyHost("[::ffff:127.0.0.1]") // "loopback"
 */
export function classifyHost(host: string): HostClass {
  const h = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (h === "") return "invalid";
  if (ipaddr.isValid(h)) {
    // process(): IPv4-mapped IPv6 becomes the IPv4 address it wraps.
    return classifyIp(ipaddr.process(h));
  }
  if (LOOPBACK_NAME.test(h)) return "loopback";
  if (PRIVATE_NAME.test(h)) return "private";
  // A name must be a DNS name; anything else (e.g. a partial IP the URL parser did not take) is refused.
  return /^[a-z0-9.-]+$/i.test(h) && !/^[0-9.]+$/.test(h) ? "public" : "invalid";
}

/** Options of `assertFetchableUrl`. */
export interface HostPolicy {
  /** Also allow loopback hosts (local mode: `ALLOW_LOOPBACK_GIT_URLS=true`, set by `npm start`). */
  allowLoopback: boolean;
}

/**
 * Whether `url` (http or https) may be fetched under `policy`: true for public hosts, and for
 * loopback ones when the policy allows them.
 */
export function isFetchableUrl(url: URL, policy: HostPolicy): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const cls = classifyHost(url.hostname);
  return cls === "public" || (cls === "loopback" && policy.allowLoopback);
}

/** Human words for a class, for the refusal message. */
export function describeHostClass(cls: HostClass): string {
  switch (cls) {
    case "public":
      return "a public address";
    case "loopback":
      return "a loopback address";
    case "private":
      return "a private-network address";
    case "link_local":
      return "a link-local address";
    case "cgnat":
      return "a carrier-grade NAT address";
    case "unique_local":
      return "a unique-local IPv6 address";
    case "unspecified":
      return "the unspecified address";
    case "multicast":
      return "a multicast address";
    case "broadcast":
      return "the broadcast address";
    case "reserved":
      return "a reserved address";
    case "invalid":
      return "not a valid host name";
  }
}
