// RFC-style records: the alternatives an RFC weighs sit in parts named beside something else ("Rationale and
// alternatives", "Prior art and alternatives", "Expectations and alternatives"), under a template's question ("What
// alternatives have been considered?"), or under sub-headings that ask "Why not X?". Every record and sentence here
// is written for these tests.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseAdr } from "../../src/core/internal/adr";
import { DecisionRecordSchema, decisionModelOf, type DecisionRecord } from "../../src/core/decisions";

function model(path: string, text: string): DecisionRecord {
  const m = decisionModelOf(parseAdr(path, text));
  DecisionRecordSchema.parse(m);
  return m;
}

const names = (m: DecisionRecord) => m.considered.map((c) => c.name.toLowerCase());

describe("alternatives in combined RFC parts", () => {
  test("sub-headings under 'Rationale and Alternatives' are the alternatives weighed", () => {
    const text = [
      "# Cache compiled templates",
      "",
      "## Summary",
      "",
      "Compiled templates are kept in a shared cache.",
      "",
      "## Motivation",
      "",
      "Every request compiles its templates again.",
      "",
      "## Rationale and Alternatives",
      "",
      "### Compile at build time",
      "",
      "Templates edited at run time would be missed.",
      "",
      "### Keep a cache per worker",
      "",
      "Each worker would warm its own copy.",
      "",
      "## Unresolved Questions",
      "",
      "How long entries live.",
      "",
    ].join("\n");
    const m = model("rfcs/0007-template-cache.md", text);
    assert.ok(names(m).includes("compile at build time"), JSON.stringify(names(m)));
    assert.ok(names(m).includes("keep a cache per worker"), JSON.stringify(names(m)));
  });

  test("headings under 'Prior art and alternatives' name what was weighed", () => {
    const text = [
      "# Lockfile pruning",
      "",
      "## Summary",
      "",
      "The installer drops lockfile entries nothing depends on.",
      "",
      "## Detailed Explanation",
      "",
      "Entries are pruned after every install.",
      "",
      "## Prior Art and Alternatives",
      "",
      "### Cargo",
      "",
      "Cargo rewrites its lockfile on every build.",
      "",
      "### Manual pruning command",
      "",
      "A separate command would leave stale entries until someone runs it.",
      "",
    ].join("\n");
    const m = model("rfcs/0012-lockfile-pruning.md", text);
    assert.ok(names(m).includes("cargo"), JSON.stringify(names(m)));
    assert.ok(names(m).includes("manual pruning command"), JSON.stringify(names(m)));
  });

  test("an ADR's 'Consequences and alternatives' lists follow-up work, not alternatives", () => {
    const text = [
      "# 0003 - Job runner",
      "",
      "## Context",
      "",
      "Some jobs run for hours.",
      "",
      "## Decision",
      "",
      "We will use Nomad as the job runner.",
      "",
      "## Consequences and Alternatives",
      "",
      "Because jobs share one host, we will need to do one of the following:",
      " - pin each job to its own node pool",
      " - cap the memory of every job",
      "",
    ].join("\n");
    const m = model("docs/adr/0003-job-runner.md", text);
    assert.ok(!names(m).some((n) => /memory|node pool/.test(n)), JSON.stringify(names(m)));
  });

  test("a template's questions: only the answer to the question about alternatives names them", () => {
    const text = [
      "# Retry budget for SDKs",
      "",
      "* Status: Proposed",
      "",
      "## Overview",
      "",
      "SDKs read one retry budget from the environment.",
      "",
      "## Expectations and alternatives",
      "",
      "* What is in scope for this proposal?",
      "  - one variable for the retry budget",
      "  - the same retriable errors everywhere",
      "* What alternatives have been considered, and why do they not solve the problem?",
      "1. Keep each SDK as it is:",
      "  - callers wait forever when the sidecar hangs",
      "2. Retry in the sidecar only",
      "* Are there any trade-offs being made? (speed for safety)",
      "1. Fewer knobs than before.",
      "",
      "## Implementation Details",
      "",
      "Each SDK reads the variable at start-up.",
      "",
    ].join("\n");
    const m = model("proposals/20250101-retry-budget.md", text);
    const got = names(m);
    assert.ok(got.includes("keep each sdk as it is"), JSON.stringify(got));
    assert.ok(got.includes("retry in the sidecar only"), JSON.stringify(got));
    assert.ok(!got.some((n) => /scope|fewer knobs|retriable errors|trade-offs/.test(n)), JSON.stringify(got));
  });

  test("a template whose only question is not about alternatives names none", () => {
    const text = [
      "# Metric labels for routes",
      "",
      "## Overview",
      "",
      "Route templates become metric labels.",
      "",
      "## Expectations and alternatives",
      "",
      "* What is in scope for this proposal?",
      "  - HTTP routes",
      "  - gRPC methods",
      "",
      "## Implementation Details",
      "",
      "A new option lists the templates.",
      "",
    ].join("\n");
    const m = model("proposals/20250102-route-labels.md", text);
    assert.ok(!names(m).some((n) => /http routes|grpc methods/.test(n)), JSON.stringify(names(m)));
  });
});

describe("alternatives named by the lead of their paragraph or item", () => {
  const rfc = (alternatives: string[]) =>
    ["# Shared build cache", "", "## Summary", "", "Builds share one remote cache.", "", "## Detailed Design", "", "The cache is keyed by input hashes.", "", "## Alternatives", "", ...alternatives, "", "## Open Questions", "", "Eviction.", ""].join("\n");

  test("bold-led paragraphs name the alternatives; the lists under them argue", () => {
    const m = model("rfcs/0031-build-cache.md", rfc([
      "**Alternative 1: Cache on each runner.**",
      "",
      "Simple to set up. However:",
      "- every runner warms its own copy",
      "- disks fill up quickly",
      "",
      "**Alternative 2: Vendor the build outputs.**",
      "",
      "Disadvantages:",
      "- the repository grows with every release",
      "",
      "**Note:** both were tried for a week.",
    ]));
    const got = names(m);
    assert.ok(got.some((n) => /cache on each runner/.test(n)), JSON.stringify(got));
    assert.ok(got.some((n) => /vendor the build outputs/.test(n)), JSON.stringify(got));
    assert.ok(!got.some((n) => /runner warms|disks fill|repository grows|^note/.test(n)), JSON.stringify(got));
  });

  test("long items that open with a bold lead or a short name before a colon are named by it", () => {
    const m = model("rfcs/0032-build-cache.md", rfc([
      "- No remote option: the first draft kept everything on local disks, which made cold builds on fresh runners take as long as they do today and gave nothing to the people who asked for this feature in the first place.",
      "- **Separate cache service.** Running a dedicated service for the cache was weighed too, but it would need its own deployment, its own monitoring and an owner on call, and nobody on the team has the time to look after one more service.",
    ]));
    const got = names(m);
    assert.ok(got.includes("no remote option"), JSON.stringify(got));
    assert.ok(got.includes("separate cache service"), JSON.stringify(got));
  });

  test("verdict labels in a lead ('Chosen:', 'Finding:') name no alternative", () => {
    const m = model("rfcs/0033-build-cache.md", rfc([
      "**1. Cache on each runner**",
      "- Finding: warms slowly on fresh runners and fills the disks of small machines within days",
      "- Rejected: the cost of cold builds stays the same as it is today for every new runner",
      "",
      "**2. Vendor the build outputs**",
      "- Finding: the repository grows by a gigabyte with every release that we cut from main",
      "- Rejected: clones become too slow for contributors on poor connections to work with",
      "",
      "**Chosen**: one remote cache keyed by input hashes.",
    ]));
    const got = names(m);
    assert.ok(got.some((n) => /cache on each runner/.test(n)), JSON.stringify(got));
    assert.ok(!got.some((n) => /^(?:finding|rejected|chosen)$/.test(n)), JSON.stringify(got));
  });
});

describe("alternatives argued in sentences", () => {
  const rfc = (alternatives: string[]) =>
    ["# Release channels", "", "## Summary", "", "Add a slow release channel.", "", "## Proposal", "", "Every sixth release is kept for a year.", "", "## Rationale and alternatives", "", ...alternatives, "", "## Open questions", "", "None yet.", ""].join("\n");

  test("'Instead of X, we could Y' names Y", () => {
    const m = model("accepted/release-channels.md", rfc([
      "* Instead of keeping our own channel, we could point users at the nightly builds. However, nightly builds break too often for the people who asked, and nobody would backport security fixes to them either.",
      "",
      "* We could also ship every release for a year, but that multiplies the backporting work by six and the team that maintains the branches is already stretched thin as it is.",
    ]));
    assert.ok(names(m).some((n) => /^point users at the nightly builds/.test(n)), JSON.stringify(names(m)));
  });

  test("'Alternative 2 is to X' names X", () => {
    const m = model("accepted/release-channels-2.md", rfc([
      "Alternative 1 is to keep the current schedule. Users who need stability would keep pinning old versions.",
      "",
      "Alternative 2 is to publish a patch series for each release.",
    ]));
    const got = names(m);
    assert.ok(got.some((n) => /^keep the current schedule/.test(n)), JSON.stringify(got));
    assert.ok(got.some((n) => /^publish a patch series/.test(n)), JSON.stringify(got));
  });

  test("a long alternative keeps its first whole clause", () => {
    const m = model("accepted/release-channels-3.md", rfc([
      "* The major alternative to this design is to not offer a slow channel at all and carry on with only the current and previous releases receiving security fixes.",
      "",
      "* Another alternative is to keep only one slow channel at a time. The problem is that users then have no window in which both channels get fixes while they upgrade.",
    ]));
    assert.ok(names(m).includes("not offer a slow channel at all"), JSON.stringify(names(m)));
  });
});

describe("a bold lead that marks its alternative chosen", () => {
  test("'**Plan 2 — a queue per tenant (chosen).**' is the choice, named in full", () => {
    const text = [
      "# ADR 12: Upload throttling",
      "",
      "## Status",
      "",
      "Accepted",
      "",
      "## Context",
      "",
      "A few tenants flood the upload service.",
      "",
      "## Decision",
      "",
      "We hold uploads back once a tenant's queue is full.",
      "",
      "## Alternative Approaches",
      "",
      "**Plan 1 — one global token bucket.** Simple, but one tenant can still starve the others during a burst.",
      "",
      "**Plan 2 — a queue per tenant (chosen).** Each tenant waits only behind its own uploads.",
      "",
      "**Plan 3 — reject every upload over a fixed size.** Easy to explain, but it blocks legitimate large files.",
      "",
    ].join("\n");
    const m = model("docs/architecture/adr-012-upload-throttling.md", text);
    assert.equal(m.chosen?.name, "Plan 2 — a queue per tenant", JSON.stringify(m.chosen));
    assert.ok(names(m).includes("plan 1 — one global token bucket"), JSON.stringify(names(m)));
  });
});
