import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { AllowList, DEFAULT_ALLOW_HOSTS, classifyAddress, parseAllowHost, v6ToBigInt } from "../../src/core/external/guard";
import { FetchError, GuardedFetcher, type LookupFn } from "../../src/core/external/fetch";
import { spyOnConnect } from "../fixtures/external/http";

describe("allow-list", () => {
  it("parses host, host:port, [v6]:port, wildcards and URLs", () => {
    assert.deepEqual(parseAllowHost("Docs.Example.com"), { host: "docs.example.com", wildcard: false, explicit: true, source: "Docs.Example.com" });
    assert.equal(parseAllowHost("127.0.0.1:8080")?.port, 8080);
    assert.equal(parseAllowHost("127.0.0.1:8080")?.host, "127.0.0.1");
    assert.deepEqual(
      [parseAllowHost("[::1]:9000")?.host, parseAllowHost("[::1]:9000")?.port],
      ["::1", 9000],
    );
    assert.equal(parseAllowHost("::1")?.host, "::1");
    assert.equal(parseAllowHost("*.example.org")?.wildcard, true);
    assert.equal(parseAllowHost("http://searx.lan:8888/search")?.host, "searx.lan");
    assert.equal(parseAllowHost("http://searx.lan:8888/search")?.port, 8888);
    assert.equal(parseAllowHost(""), undefined);
    assert.equal(parseAllowHost("host:99999"), undefined);
    assert.equal(parseAllowHost("user@host"), undefined);
  });

  it("allows the default primary-source hosts on their default ports only, http and https only", () => {
    const list = AllowList.create();
    for (const h of ["developer.mozilla.org", "nodejs.org", "docs.python.org", "arxiv.org", "github.com", "raw.githubusercontent.com"]) {
      assert.ok(DEFAULT_ALLOW_HOSTS.includes(h), h);
      assert.ok(list.allows(`https://${h}/x`), h);
    }
    assert.ok(list.allows("http://nodejs.org/api/"));
    assert.ok(!list.allows("https://nodejs.org:8443/api/"), "non-default port");
    assert.ok(!list.allows("ftp://nodejs.org/"), "ftp");
    assert.ok(!list.allows("file:///etc/passwd"));
    assert.ok(!list.allows("https://evil.example/"));
    assert.ok(!list.allows("https://nodejs.org.evil.example/"), "suffix trick");
    assert.ok(!list.allows("https://evilnodejs.org/"), "prefix trick");
    assert.ok(!list.allows("https://sub.nodejs.org/"), "exact host unless wildcard");
    // Defaults are not explicit: private addresses stay refused for them.
    assert.equal(list.match(new URL("https://nodejs.org/"))?.explicit, false);
  });

  it("user additions: exact host and port, explicit; wildcards cover subdomains", () => {
    const list = AllowList.create({ allowHosts: ["127.0.0.1:4000", "*.internal.example", "docs.lan"], includeDefaults: false });
    assert.ok(list.allows("http://127.0.0.1:4000/a"));
    assert.ok(!list.allows("http://127.0.0.1:4001/a"), "other port");
    assert.ok(!list.allows("http://127.0.0.1/a"), "default port not implied by a port entry");
    assert.ok(list.allows("https://a.b.internal.example/"));
    assert.ok(list.allows("https://internal.example/"));
    assert.ok(list.allows("http://docs.lan/"));
    assert.ok(!list.allows("http://docs.lan:8080/"));
    assert.equal(list.match(new URL("http://127.0.0.1:4000/"))?.explicit, true);
    assert.ok(!AllowList.create({ includeDefaults: false }).allows("https://nodejs.org/"));
  });

  it("an explicit rule wins over a default one for the same host", () => {
    const list = AllowList.create({ allowHosts: ["nodejs.org"] });
    assert.equal(list.match(new URL("https://nodejs.org/"))?.explicit, true);
  });
});

describe("address guard", () => {
  const blocked: [string, string][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.1.2", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.10.10", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["0.0.0.0", "this-network"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd00::1", "unique-local (private)"],
    ["fc00::5", "unique-local (private)"],
    ["fd00:ec2::254", "unique-local (private)"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback (IPv4 embedded in IPv6)"],
    ["::ffff:a9fe:a9fe", "cloud metadata (IPv4 embedded in IPv6)"],
    ["64:ff9b::10.0.0.1", "private (IPv4 embedded in IPv6)"],
    ["2002:0a00:0001::1", "private (6to4)"],
    ["2001:db8::1", "documentation"],
  ];
  for (const [ip, range] of blocked) {
    it(`refuses ${ip} (${range})`, () => assert.deepEqual(classifyAddress(ip), { blocked: true, range }));
  }
  const allowed = ["93.184.216.34", "8.8.8.8", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "169.253.0.1", "2606:4700::6810:84e5", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "2002:0808:0808::1"];
  for (const ip of allowed) it(`allows ${ip}`, () => assert.deepEqual(classifyAddress(ip), { blocked: false }));

  it("refuses what is not an IP literal", () => assert.equal(classifyAddress("localhost").blocked, true));

  it("parses IPv6 forms", () => {
    assert.equal(v6ToBigInt("::1"), 1n);
    assert.equal(v6ToBigInt("::"), 0n);
    assert.equal(v6ToBigInt("::ffff:1.2.3.4"), (0xffffn << 32n) | 0x01020304n);
    assert.equal(v6ToBigInt("1:2:3:4:5:6:7:8"), 0x00010002000300040005000600070008n);
    assert.equal(v6ToBigInt("not-an-ip"), undefined);
  });
});

describe("address guard after DNS (injected lookup)", () => {
  let spy: ReturnType<typeof spyOnConnect>;
  before(() => (spy = spyOnConnect()));
  after(() => spy.restore());

  const table: Record<string, string[]> = {
    "docs.python.org": ["10.1.2.3"],
    "nodejs.org": ["104.20.22.46", "127.0.0.1"],
    "developer.mozilla.org": ["::ffff:169.254.169.254"],
    "github.com": ["fd12::1"],
    "arxiv.org": ["151.101.3.42"],
    "docs.lan": ["10.9.9.9"],
  };
  const lookup: LookupFn = async (h) => {
    const a = table[h];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: "ENOTFOUND" });
    return a.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  const fetcher = new GuardedFetcher({ lookup, allowHosts: ["docs.lan"], timeoutMs: 1000 });

  async function refusal(url: string): Promise<FetchError> {
    const err = await fetcher.fetch(url).then(
      () => assert.fail("expected a refusal"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof FetchError, String(err));
    return err;
  }

  it("refuses an allow-listed name that resolves to a private address", async () => {
    const err = await refusal("https://docs.python.org/3/library/");
    assert.equal(err.kind, "private-address");
    assert.match(err.message, /10\.1\.2\.3 \(private\)/);
  });

  it("checks every address, not just the first", async () => {
    const err = await refusal("https://nodejs.org/api/");
    assert.equal(err.kind, "private-address");
    assert.match(err.message, /127\.0\.0\.1/);
  });

  it("refuses the metadata address hidden in an IPv4-mapped IPv6 answer, and ULA answers", async () => {
    assert.equal((await refusal("https://developer.mozilla.org/")).kind, "private-address");
    assert.equal((await refusal("https://github.com/")).kind, "private-address");
  });

  it("refuses private IP literals that are not on the allow-list", async () => {
    assert.equal((await refusal("http://169.254.169.254/latest/meta-data/")).kind, "not-allowed");
    assert.equal((await refusal("http://[::1]/")).kind, "not-allowed");
  });

  it("classifies a DNS failure", async () => {
    const f = new GuardedFetcher({ lookup, allowHosts: ["nowhere.example"] });
    const err = await f.fetch("https://nowhere.example/").catch((e: unknown) => e);
    assert.ok(err instanceof FetchError);
    assert.equal(err.kind, "dns");
  });

  it("permits a private address for an explicitly configured host (check only)", async () => {
    const checked = await fetcher.check(new URL("http://docs.lan/"));
    assert.equal(checked.rule.explicit, true);
    assert.deepEqual(checked.addresses, [{ address: "10.9.9.9", family: 4 }]);
  });

  it("refuses other schemes before anything else", async () => {
    assert.equal((await refusal("ftp://docs.python.org/")).kind, "scheme");
    assert.equal((await refusal("javascript:alert(1)")).kind, "scheme");
  });

  it("opened no socket for any refusal above", () => {
    assert.deepEqual(spy.calls, []);
  });
});
