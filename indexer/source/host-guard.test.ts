import { describe, expect, it } from "vitest";
import { classifyHost, isFetchableUrl, type HostClass } from "./host-guard";

// Each row is a URL as a user would send it; the host is taken through the WHATWG URL parser
// first (as parseGitUrl does), so encoded spellings are tested the way they arrive.
const cases: [url: string, expected: HostClass][] = [
  ["https://github.com/honojs/hono.git", "public"],
  ["https://8.8.8.8/x.git", "public"],
  ["https://[2606:4700:4700::1111]/x.git", "public"],
  ["http://127.0.0.1/x.git", "loopback"],
  ["http://127.9.9.9/x.git", "loopback"],
  ["http://2130706433/x.git", "loopback"], // decimal
  ["http://0x7f.1/x.git", "loopback"], // hex, two parts
  ["http://0x7f000001/x.git", "loopback"], // hex, one part
  ["http://0177.0.0.1/x.git", "loopback"], // octal
  ["http://127.1/x.git", "loopback"], // short form
  ["http://%31%32%37.0.0.1/x.git", "loopback"], // percent-encoded
  ["http://[::1]/x.git", "loopback"],
  ["http://[::ffff:127.0.0.1]/x.git", "loopback"], // IPv4-mapped IPv6
  ["http://[::ffff:7f00:1]/x.git", "loopback"],
  ["http://localhost/x.git", "loopback"],
  ["http://LOCALHOST./x.git", "loopback"],
  ["http://api.localhost/x.git", "loopback"],
  ["http://10.0.0.1/x.git", "private"],
  ["http://172.16.5.4/x.git", "private"],
  ["http://192.168.1.1/x.git", "private"],
  ["http://[::ffff:192.168.1.1]/x.git", "private"],
  ["http://3232235777/x.git", "private"], // 192.168.1.1 in decimal
  ["http://169.254.169.254/latest/meta-data/", "link_local"], // cloud metadata
  ["http://0xa9fea9fe/", "link_local"], // 169.254.169.254 in hex
  ["http://[fe80::1]/x.git", "link_local"],
  ["http://100.64.0.1/x.git", "cgnat"],
  ["http://[fd00::1]/x.git", "unique_local"],
  ["http://[fc00::1]/x.git", "unique_local"],
  ["http://0.0.0.0/x.git", "unspecified"],
  ["http://0/x.git", "unspecified"],
  ["http://[::]/x.git", "unspecified"],
  ["http://224.0.0.1/x.git", "multicast"],
  ["http://[ff02::1]/x.git", "multicast"],
  ["http://255.255.255.255/x.git", "broadcast"],
  ["http://240.0.0.1/x.git", "reserved"],
  // IPv6 forms that embed an IPv4 address take that address's class, and are reserved (refused)
  // when it is public; any other IPv6 outside global unicast 2000::/3 is reserved.
  ["http://[::127.0.0.1]/x.git", "loopback"], // IPv4-compatible (the URL parser writes ::7f00:1)
  ["http://[::169.254.169.254]/latest/meta-data/", "link_local"],
  ["http://[::10.0.0.1]/x.git", "private"],
  ["http://[::8.8.8.8]/x.git", "reserved"],
  ["http://[::ffff:169.254.169.254]/", "link_local"], // IPv4-mapped
  ["http://[::ffff:0:127.0.0.1]/x.git", "loopback"], // SIIT (RFC 6145)
  ["http://[64:ff9b::7f00:1]/x.git", "loopback"], // NAT64 wrapping 127.0.0.1
  ["http://[64:ff9b::169.254.169.254]/", "link_local"],
  ["http://[64:ff9b::10.0.0.1]/x.git", "private"],
  ["http://[64:ff9b::8.8.8.8]/x.git", "reserved"],
  ["http://[64:ff9b:1::a00:1]/x.git", "reserved"], // RFC 8215 local-use NAT64
  ["http://[2002:7f00:1::]/x.git", "loopback"], // 6to4 wrapping 127.0.0.1
  ["http://[2002:a9fe:a9fe::1]/", "link_local"],
  ["http://[2002:c0a8:101::1]/x.git", "private"], // 192.168.1.1
  ["http://[2002:808:808::1]/x.git", "reserved"],
  ["http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x.git", "loopback"], // Teredo, client 127.0.0.1
  ["http://[100::1]/x.git", "reserved"], // discard prefix
  ["http://[2001:db8::1]/x.git", "reserved"], // documentation
  ["http://[fec0::1]/x.git", "reserved"], // deprecated site-local
  ["http://[4000::1]/x.git", "reserved"], // unassigned, outside 2000::/3
  ["http://printer.local/x.git", "private"],
  ["http://metadata.google.internal/", "private"],
];

describe("classifyHost", () => {
  it.each(cases)("%s -> %s", (url, expected) => {
    expect(classifyHost(new URL(url).hostname)).toBe(expected);
  });
  it.each([
    ["0x7f.1", "loopback"],
    ["2130706433", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["[::1]", "loopback"],
    ["", "invalid"],
  ] as const)("raw spelling %j -> %s", (host, expected) => {
    expect(classifyHost(host)).toBe(expected);
  });
});

describe("isFetchableUrl", () => {
  it("allows only public hosts by default", () => {
    expect(isFetchableUrl(new URL("https://github.com/a/b.git"), { allowLoopback: false })).toBe(true);
    expect(isFetchableUrl(new URL("http://127.0.0.1:8787/a.git"), { allowLoopback: false })).toBe(false);
    expect(isFetchableUrl(new URL("http://[::1]/a.git"), { allowLoopback: false })).toBe(false);
    expect(isFetchableUrl(new URL("http://[::127.0.0.1]/a.git"), { allowLoopback: false })).toBe(false);
    expect(isFetchableUrl(new URL("http://[::169.254.169.254]/"), { allowLoopback: true })).toBe(false);
  });
  it("local mode adds loopback, and nothing else", () => {
    const local = { allowLoopback: true };
    expect(isFetchableUrl(new URL("http://127.0.0.1:8787/a.git"), local)).toBe(true);
    expect(isFetchableUrl(new URL("http://localhost/a.git"), local)).toBe(true);
    expect(isFetchableUrl(new URL("http://10.0.0.1/a.git"), local)).toBe(false);
    expect(isFetchableUrl(new URL("http://169.254.169.254/"), local)).toBe(false);
    expect(isFetchableUrl(new URL("http://0.0.0.0:8787/"), local)).toBe(false);
  });
  it("refuses other schemes", () => {
    expect(isFetchableUrl(new URL("ftp://github.com/a"), { allowLoopback: true })).toBe(false);
  });
});
