import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { extractHtml, extractText, MAX_SECTION_LINES } from "../../src/core/external/extract";

const ARTICLE = `<!doctype html><html><head><title>Caching guide</title>
<style>.x{color:red}</style><script>window.tracking = "caching caching caching";</script></head>
<body><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav>
<main><article>
<h1>Caching guide</h1>
<p>Caching keeps hot data close to the application. ${"It trades memory for latency and needs an invalidation story. ".repeat(6)}</p>
<h2 id="ttl">Time to live</h2>
<p>Set a <code>TTL</code> on every key &amp; prefer short expiries for <em>session</em> data. ${"Expiry bounds staleness. ".repeat(8)}</p>
<ul><li>Sessions: 30 minutes</li><li>Profiles: 5 minutes <ul><li>nested note</li></ul></li></ul>
<h3>Eviction</h3>
<p>Use allkeys-lru when the cache is a pure cache.</p>
<pre>redis-cli config set maxmemory-policy allkeys-lru
CONFIG GET maxmemory</pre>
<table><tr><th>Policy</th><th>Use</th></tr><tr><td>allkeys-lru</td><td>pure cache</td></tr></table>
<h2>Invalidation</h2>
<blockquote><p>There are only two hard things.</p></blockquote>
</article></main>
<footer>© footer links</footer></body></html>`;

describe("extract", () => {
  it("reduces an HTML article to readable text with headings, without scripts, styles or navigation", () => {
    const r = extractHtml(ARTICLE);
    assert.equal(r.method, "readability");
    assert.equal(r.title, "Caching guide");
    assert.doesNotMatch(r.text, /tracking|color:red|Pricing|footer links/);
    assert.match(r.text, /^## Time to live$/m);
    assert.match(r.text, /^### Eviction$/m);
    assert.match(r.text, /Set a TTL on every key & prefer short expiries for session data\./);
    assert.match(r.text, /^- Sessions: 30 minutes$/m);
    assert.match(r.text, /^ {2}- nested note$/m);
    assert.match(r.text, /^```\nredis-cli config set maxmemory-policy allkeys-lru\nCONFIG GET maxmemory\n```$/m);
    assert.match(r.text, /^\| allkeys-lru \| pure cache \|$/m);
    assert.match(r.text, /^> There are only two hard things\.$/m);
  });

  it("gives every section a line range within the extracted text", () => {
    const r = extractHtml(ARTICLE);
    const lines = r.text.split("\n");
    assert.deepEqual(
      r.sections.map((s) => [s.heading, s.level]),
      [["", 0], ["Time to live", 2], ["Eviction", 3], ["Invalidation", 2]],
    );
    for (const s of r.sections) {
      assert.ok(s.start >= 1 && s.end >= s.start && s.end <= lines.length, JSON.stringify(s));
      if (s.level > 0) assert.equal(lines[s.start - 1], `${"#".repeat(s.level)} ${s.heading}`);
      assert.ok(lines[s.end - 1].trim(), "ranges end on a non-blank line");
    }
    const eviction = r.sections.find((s) => s.heading === "Eviction")!;
    assert.match(lines.slice(eviction.start - 1, eviction.end).join("\n"), /allkeys-lru when the cache is a pure cache/);
    assert.doesNotMatch(eviction.body, /Invalidation/);
  });

  it("falls back to the page body when there is no article, still dropping scripts and navigation", () => {
    const r = extractHtml(`<html><head><title>T</title></head><body><nav>menu</nav><h2>Only</h2><p>short</p><script>evil()</script></body></html>`);
    assert.match(r.text, /## Only\n\nshort/);
    assert.doesNotMatch(r.text, /evil|menu/);
    assert.equal(r.sections.length, 1);
  });

  it("does not treat '#' inside paragraphs as headings", () => {
    const r = extractHtml(`<html><body><article><h2>Real</h2><p># not a heading</p><p>${"words ".repeat(100)}</p></article></body></html>`);
    assert.deepEqual(r.sections.map((s) => s.heading).filter(Boolean), ["Real"]);
  });

  it("splits markdown and plain text responses with their own line numbers", () => {
    const md = extractText("intro\n\n# Title\n\ntext\n\n## Part\n\nmore\n", "text/markdown");
    assert.equal(md.method, "markdown");
    assert.equal(md.title, "Title");
    assert.deepEqual(md.sections.map((s) => [s.heading, s.start, s.end]), [["", 1, 1], ["Title", 3, 5], ["Part", 7, 9]]);
    const plain = extractText("just\nsome\ntext", "text/plain");
    assert.deepEqual(plain.sections.map((s) => [s.start, s.end]), [[1, 3]]);
  });

  it("windows very long sections", () => {
    const long = ["# Big", ...Array.from({ length: 150 }, (_, i) => `line ${i}`)].join("\n");
    const r = extractText(long, "text/markdown");
    assert.ok(r.sections.length >= 3);
    for (const s of r.sections) assert.ok(s.end - s.start + 1 <= MAX_SECTION_LINES);
    assert.equal(r.sections[0].start, 1);
    assert.equal(r.sections[r.sections.length - 1].end, 151);
  });
});
