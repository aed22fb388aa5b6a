// The pure parts of the ADR export: file naming (numbers with their padding and prefix, gaps, dates, one folder per
// ADR), the status line of a superseded ADR in each format, plain-text neutralising, and the dry run's diff.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { changedLineRange, nextAdrName, unifiedDiff, supersededText } from "../../src/core/adrExport";
import { fileSlug, namingOf } from "../../src/core/adrExport/layout";
import { plainInline, plainParagraph } from "../../src/core/adrExport/plainText";
import { parseAdr } from "../../src/core/internal/adr";

describe("naming", () => {
  it("follows the folder's numbering: padding, prefix, separator; numbers only grow (gaps are not reused)", () => {
    const cases: [string[], string][] = [
      [["0001-a.md", "0003-b.md", "README.md"], "0004-use-x.md"],
      [["adr-001-a.md", "adr-002-b.md"], "adr-003-use-x.md"],
      [["ADR-0009-a.md", "ADR-0010-b.md", "template.md"], "ADR-0011-use-x.md"],
      [["1-a.md", "2-b.md", "3-c.md"], "4-use-x.md"],
      [["0001_a.md", "0002_b.md"], "0002_b.md".replace(/.*/, "0003_use-x.md")],
    ];
    for (const [entries, want] of cases) {
      const naming = namingOf(entries, "")!;
      assert.equal(nextAdrName(entries, naming, "use-x", "2026-03-04").name, want, entries.join(","));
    }
  });

  it("dated names take the day, and -2, -3 … when that name is taken", () => {
    const dashed = namingOf(["2024-01-02-a.md", "2024-02-03-b.md"], "")!;
    assert.deepEqual(dashed, { kind: "dated", compact: false });
    assert.equal(nextAdrName(["2026-03-04-use-x.md"], dashed, "use-x", "2026-03-04").name, "2026-03-04-use-x-2.md");
    const compact = namingOf(["20240102-a.md"], "")!;
    assert.equal(nextAdrName(["20260304-use-x.md", "20260304-use-x-2.md"], compact, "use-x", "2026-03-04").name, "20260304-use-x-3.md");
  });

  it("one folder per ADR keeps its document name", () => {
    const naming = namingOf(["records/2024-01-02-a/README.md", "records/2024-02-03-b/README.md"], "records")!;
    assert.deepEqual(naming, { kind: "folder", compact: false, doc: "README.md" });
    assert.equal(nextAdrName(["2024-01-02-a", "2026-03-04-use-x"], naming, "use-x", "2026-03-04").name, "2026-03-04-use-x-2/README.md");
  });

  it("slugs are short, lower case and ASCII", () => {
    assert.equal(fileSlug("Zustand: Should we use Redux or Zustand für the cart state?"), "zustand-should-we-use-redux-or-zustand-fur-the-cart-state");
    assert.ok(fileSlug("x ".repeat(200)).length <= 60);
    assert.equal(fileSlug("???"), "decision");
  });
});

describe("superseding an ADR in its own format", () => {
  const by = { label: "7. Use Kafka", target: "0007-use-kafka.md" };
  const cases: [string, string, RegExp][] = [
    ["MADR 4 front matter", "---\nstatus: accepted\ndate: 2024-01-01\n---\n\n# Use X\n\n## Context and Problem Statement\n\nWhy.\n", /^status: "superseded by \[7\. Use Kafka\]\(0007-use-kafka\.md\)"$/m],
    ["Nygard Status section", "# 3. Use X\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n", /^## Status\n\nSuperseded by \[7\. Use Kafka\]\(0007-use-kafka\.md\)\n\n## Context/m],
    ["MADR 2 bullet", "# Use X\n\n* Status: accepted\n* Date: 2024-01-01\n\n## Context and Problem Statement\n\nWhy.\n", /^\* Status: Superseded by \[7\. Use Kafka\]/m],
    ["bold metadata", "# 3. Use X\n\n**Status:** Accepted\n\n## Context\n\nWhy.\n", /^\*\*Status:\*\* Superseded by \[7\. Use Kafka\]/m],
    ["status heading", "# Use X\n\n## Status: Accepted\n\n## Context\n\nWhy.\n", /^## Status: Superseded by \[7\. Use Kafka\]/m],
    ["no status at all", "# Use X\n\n## Context\n\nWhy.\n\n## Decision\n\nX.\n", /^# Use X\n\n## Status\n\nSuperseded by \[7\. Use Kafka\]/m],
  ];
  for (const [name, text, want] of cases) {
    it(name, () => {
      const out = supersededText(text, "docs/adr/0003-use-x.md", by);
      assert.match(out, want);
      const parsed = parseAdr("docs/adr/0003-use-x.md", out);
      assert.equal(parsed.status, "superseded");
      assert.deepEqual(parsed.superseded_by, ["docs/adr/0007-use-kafka.md"]);
      // Only the status changes: every other line is kept.
      const removed = text.split("\n").filter((l) => !out.split("\n").includes(l));
      assert.ok(removed.length <= 1, `removed: ${removed.join(" | ")}`);
    });
  }
  it("keeps CRLF line endings", () => {
    const out = supersededText("# 3. Use X\r\n\r\n## Status\r\n\r\nAccepted\r\n", "adr/0003-use-x.md", by);
    assert.equal(out, "# 3. Use X\r\n\r\n## Status\r\n\r\nSuperseded by [7. Use Kafka](0007-use-kafka.md)\r\n");
  });
});

describe("plain text", () => {
  it("neutralises HTML, links, images, block starts and the record's own keywords", () => {
    assert.equal(plainInline("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
    assert.equal(plainInline("see [docs](http://x) and ![i](y)"), "see \\[docs\\](http://x) and \\!\\[i\\](y)");
    assert.equal(plainInline("a\x1b]0;title\x07b\nc"), "ab c");
    assert.equal(plainParagraph("# heading"), "\\# heading");
    assert.equal(plainParagraph("- item"), "\\- item");
    assert.equal(plainInline("Chosen option: Redux"), "Chosen option — Redux");
    assert.equal(plainInline("x".repeat(500), 10).length, 10);
  });
});

describe("unified diff", () => {
  it("prints hunks with context, removals before additions", () => {
    const before = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n") + "\n";
    const after = ["a", "b", "c", "D", "e", "f", "g", "h"].join("\n") + "\n";
    assert.equal(unifiedDiff("x.md", before, after), "--- a/x.md\n+++ b/x.md\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g");
    assert.equal(unifiedDiff("new.md", undefined, "one\ntwo\n"), "--- /dev/null\n+++ b/new.md\n@@ -0,0 +1,2 @@\n+one\n+two");
    assert.equal(unifiedDiff("x.md", "same\n", "same\n"), "");
  });
});

describe("the smallest changed line range (the editor's supersession edit)", () => {
  it("replaces only the lines that differ", () => {
    const before = "---\nstatus: accepted\ndate: x\n---\n\n# T\n";
    const after = "---\nstatus: \"superseded by [7](7.md)\"\ndate: x\n---\n\n# T\n";
    const r = changedLineRange(before, after, "\n");
    assert.deepEqual(r, { from: 4, to: 21, text: 'status: "superseded by [7](7.md)"\n' });
    assert.equal(before.slice(0, r.from) + r.text + before.slice(r.to), after);
    const inserted = changedLineRange("# T\n\n## Context\n", "# T\n\n## Status\n\nX\n\n## Context\n", "\n");
    assert.equal("# T\n\n## Context\n".slice(0, inserted.from) + inserted.text + "# T\n\n## Context\n".slice(inserted.to), "# T\n\n## Status\n\nX\n\n## Context\n");
    const crlf = changedLineRange("a\r\nb\r\n", "a\r\nB\r\n", "\r\n");
    assert.deepEqual(crlf, { from: 3, to: 6, text: "B\r\n" });
  });
});
