// Status signals found on RFC logs in this round: a status line that says what replaced the record ("Replaced with
// [the guide](…)"), "not implemented" (never built: no acceptance, though it says "implemented"), and a title that
// carries the status in brackets ("… (not implemented)", "[Deprecated] …"). A bracket that only says what the
// record does ("(deprecation of the old helper)") is no status. Every record here is written for these tests.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { normaliseStatus, parseAdr } from "../../src/core/internal/adr";

const rfc = (title: string, statusLine = "") => `# ${title}\n\n${statusLine ? `- Status: ${statusLine}\n\n` : ""}## Problem\n\nSomething to solve.\n\n## Proposal\n\nWe will do it.\n`;

describe("status lines", () => {
  it("reads 'replaced with' as superseded, like 'replaced by'", () => {
    assert.equal(normaliseStatus("Replaced with [the migration guide](../guides/migrate.md)."), "superseded");
    assert.equal(normaliseStatus("Replaced by ADR 9"), "superseded");
  });

  it("reads 'not implemented' as a record that was never taken up, and 'implemented' as accepted", () => {
    assert.equal(normaliseStatus("Not implemented"), "rejected");
    assert.equal(normaliseStatus("not been adopted"), "rejected");
    assert.equal(normaliseStatus("Implemented"), "accepted");
  });
});

describe("status in the title", () => {
  it("takes an out-of-force status from brackets at either end of the title", () => {
    const a = parseAdr("rfc-067-org-tags.md", rfc("Organisation tags (not implemented)"));
    assert.equal(a.status, "rejected");
    assert.ok(a.warnings.some((w) => /from its title/.test(w)));
    assert.equal(parseAdr("docs/0003-x.md", rfc("[Deprecated] Cache everything", "Accepted")).status, "deprecated");
    assert.equal(parseAdr("docs/0004-y.md", rfc("Use a queue (superseded by ADR 9)")).status, "superseded");
  });

  it("leaves a title whose brackets say what the record does, or an in-force status, as it is", () => {
    assert.equal(parseAdr("fe/jsx.md", rfc("Conditionals in JSX (deprecation of the old helper)", "Accepted")).status, "accepted");
    assert.equal(parseAdr("fe/v2.md", rfc("Remove the deprecated endpoints (v2)", "Accepted")).status, "accepted");
    assert.equal(parseAdr("fe/draft.md", rfc("Use a queue (draft)", "Accepted")).status, "accepted");
  });
});
