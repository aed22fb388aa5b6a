// A question proposes what a rejected record proposed: the refusal keeps what is in place. What stays is not named
// after another record's choice ranked below the refusal (that record decided something else), and the rejected
// record's own reading is what it proposed, never what stayed. The repository is real, deliberated offline; the
// records are written for this test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { createGitRepo } from "../helpers/gitRepo";

const key = generateSigningKey();

const REJECTED = `# Central scrape coordinator

## Status

Rejected

## Context

Hashmod relabeling reshuffles scrape targets whenever a Prometheus replica is added to the scrape pool.

## Proposal

Add a central scrape coordinator that assigns scrape targets to each sidecar through file discovery, so
targets stay with the same replica when the scrape pool grows.

## Outcome

The maintainers turned the coordinator down: it is one more component to run and it duplicates service discovery.
`;

const OTHER = `# 7. Sidecar certificates

## Status

Accepted

## Context

Each sidecar talks to the coordinator-free query layer over gRPC and needs a certificate; scrape targets are not
involved.

## Decision

We will keep per-endpoint mTLS certificates issued by the cluster CA for every sidecar.
`;

describe("a rejected proposal keeps what is in place, unnamed", () => {
  test("the kept option is not another record's choice", async () => {
    const repo = createGitRepo([
      {
        message: "Records",
        files: { "docs/proposals-rejected/central-scrape-coordinator.md": REJECTED, "docs/adr/0007-sidecar-certificates.md": OTHER, "README.md": "# Metrics\n" },
      },
    ]);
    const out = await deliberate({
      repo,
      question: "Hashmod relabeling reshuffles our targets whenever we add a replica. Should we adopt a central scrape coordinator that assigns scrape targets to each sidecar?",
      signingKey: key,
      force: true,
      useCache: false,
      writeReceipt: false,
      config: { offline: true },
    });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const p = out.payload;
    const rec = p.options.find((o) => o.id === p.recommendation.option_id);
    assert.ok(rec, "a recommended option");
    assert.equal(rec.title, "Keep the current approach", JSON.stringify(p.options.map((o) => o.title)));
    assert.match(p.recommendation.rationale, /rejected/);
    const cited = new Set(rec.supports.map((id) => p.citations.find((c) => c.id === id)?.path_or_url));
    assert.ok(cited.has("docs/proposals-rejected/central-scrape-coordinator.md"), [...cited].join(", "));
    assert.ok(!p.options.some((o) => /mtls|certificate/i.test(o.title)), JSON.stringify(p.options.map((o) => o.title)));
  });
});
