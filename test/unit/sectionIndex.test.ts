// rankTextSections searches one source term at a time (so only one term's matches are alive at once); these tests
// hold it to exactly what one MiniSearch OR-search over the whole query tree returns, on real document text.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import MiniSearch from "minisearch";
import { rmSync } from "node:fs";
import { resolveConfig } from "../../src/core/config";
import { discoverArtifacts } from "../../src/core/internal/discovery";
import { parseMarkdown } from "../../src/core/internal/markdown";
import { combineRankings, processTerm, rankTextSections, rankThroughPublicSearchOnly, type TextSection } from "../../src/core/internal/sectionIndex";
import { createSampleRepo } from "../fixtures/sampleRepo";

/** The one-search reference: the query tree the ranking used to hand MiniSearch in a single call. */
function reference(sections: TextSection[], terms: string[], expansions: string[], opts: { feedback?: string[]; loose?: boolean; boost?: Record<string, number> } = {}) {
  const index = new MiniSearch<{ id: number; heading: string; title: string; body: string }>({
    fields: ["heading", "title", "body"],
    processTerm: (t) => processTerm(t),
    searchOptions: { boost: { heading: 2, title: 1.5, body: 1, ...opts.boost }, prefix: (t) => t.length >= 4, fuzzy: (t) => (t.length >= 6 ? 0.2 : false), maxFuzzy: 1, combineWith: "OR" },
  });
  index.addAll(sections.map((s, id) => ({ id, heading: s.heading, title: s.title ?? "", body: s.body })));
  const termQuery = terms.join(" ");
  const termTokens = new Set(termQuery.split(/[\s\p{P}]+/u).flatMap((t) => processTerm(t) ?? []));
  const expQuery = expansions.flatMap((e) => e.split(/[\s\p{P}]+/u)).filter((e) => e && !(processTerm(e) ?? []).every((t) => termTokens.has(t))).join(" ");
  const loose = opts.loose ?? true;
  return index
    .search({
      combineWith: "OR",
      ...(loose ? {} : { prefix: false, fuzzy: false }),
      queries: [
        ...(termQuery ? [{ queries: [termQuery] }] : []),
        ...(expQuery ? [{ queries: [expQuery], boostTerm: () => 0.5 }] : []),
        ...(opts.feedback?.length ? [{ queries: [opts.feedback.join(" ")], prefix: false, fuzzy: false, boostTerm: () => 0.3 }] : []),
      ],
    })
    .filter((r) => r.score > 0)
    .map((r) => ({ index: r.id as number, score: r.score, matched: [...r.terms].sort(), queryMatched: [...r.queryTerms].sort() }))
    .sort((a, b) => b.score - a.score || a.index - b.index);
}

describe("rankTextSections, one term at a time", async () => {
  const repo = createSampleRepo();
  const set = await discoverArtifacts(repo, resolveConfig());
  rmSync(repo, { recursive: true, force: true });
  const sections: TextSection[] = set.files.flatMap((f) => parseMarkdown(f.text).sections.map((s) => ({ heading: s.heading, title: f.path, body: s.body })));

  const cases: [string, string[], string[], { feedback?: string[]; loose?: boolean; boost?: Record<string, number> }][] = [
    ["terms only", ["PostgreSQL", "MongoDB", "orders"], [], {}],
    ["terms and expansions (one repeats a term)", ["state management"], ["Zustand", "Redux", "state"], {}],
    ["prefix and fuzzy derivations", ["logg", "postgres", "databse"], ["storage"], {}],
    ["a camelCase term and a duplicate", ["createOrder", "order", "order"], [], {}],
    ["feedback terms, exact only", ["logging"], ["library"], { feedback: ["pino", "structured", "json"] }],
    ["strict matching and boosts", ["rest", "graphql", "api"], ["public"], { loose: false, boost: { heading: 3 } }],
  ];
  for (const [what, terms, expansions, opts] of cases) {
    it(`gives exactly the one-search ranking: ${what}`, () => {
      const want = reference(sections, terms, expansions, opts);
      const got = rankTextSections(sections, terms, expansions, Infinity, { ...opts, ...(opts.boost ? { boost: opts.boost } : {}) });
      assert.ok(want.length > 0, "the case matches something");
      assert.deepEqual(
        got.map((r) => [r.index, r.score, r.matched, r.queryMatched]),
        want.map((r) => [r.index, r.score, r.matched, r.queryMatched]),
      );
    });
  }

  it("gives the same ranking through MiniSearch's public search() as through its scored matches", () => {
    const args = [["PostgreSQL", "orders"], ["database"], Infinity, { feedback: ["replica"] }] as const;
    const viaInternals = rankTextSections(sections, ...args);
    try {
      rankThroughPublicSearchOnly(true);
      const viaSearch = rankTextSections(sections, ...args);
      assert.ok(viaSearch.length > 0);
      assert.deepEqual(viaSearch.map((r) => [r.index, r.score, r.matched, r.queryMatched]), viaInternals.map((r) => [r.index, r.score, r.matched, r.queryMatched]));
    } finally {
      rankThroughPublicSearchOnly(false);
    }
  });

  it("combineRankings of a query and its feedback terms equals one search over both (to rounding)", () => {
    const first = rankTextSections(sections, ["logging"], ["library"]);
    const extra = rankTextSections(sections, [], [], Infinity, { feedback: ["pino", "structured"], feedbackWeight: 0.3 });
    const both = rankTextSections(sections, ["logging"], ["library"], Infinity, { feedback: ["pino", "structured"], feedbackWeight: 0.3 });
    const combined = combineRankings(first, extra);
    assert.deepEqual(combined.map((r) => r.index), both.map((r) => r.index));
    combined.forEach((r, i) => {
      assert.ok(Math.abs(r.score - both[i].score) <= 1e-12 * Math.max(1, both[i].score), `${r.score} vs ${both[i].score}`);
      assert.deepEqual(r.queryMatched, both[i].queryMatched);
    });
  });
});
