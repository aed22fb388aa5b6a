// Every matcher that reads repository text (commit subjects, ADR bodies, doc sections, questions) runs in time that
// does not grow with a long unpunctuated run: fast-check builds inputs up to 1 MB from cue words ("instead of",
// "replace", "migrate from"), option terms, punctuation runs and whitespace runs, and each call must finish within
// 50 ms. Issue 19: one 150 KB commit subject made every deliberation of a question take ~27 s through
// /(.+?)\b(?:instead of|…)\b(.+)/ in the stance reader. The end-to-end case at the bottom deliberates in a real repo
// with such a commit.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { mayBeOpenQuestionTodo, plainTodoComment, stripCommentMarkers } from "../../src/core/classify";
import { extractText } from "../../src/core/external/extract";
import { makeExcerpt, planTokens } from "../../src/core/external/text";
import { isImportLine } from "../../src/core/internal/codeUsage";
import { mentionedPaths } from "../../src/core/internal/discovery";
import { parseUnifiedDiff } from "../../src/core/guard/diff";
import { generatedFiles, ruleDecisions } from "../../src/core/guard/decisions";
import { commentStart, readLine } from "../../src/core/guard/lines";
import { peerExclusions } from "../../src/core/guard/peers";
import { categoryExclusions, labelledPurposes } from "../../src/core/guard/purposeRules";
import { familyWords, namesIn, proseOptionsOf } from "../../src/core/guard/proseOptions";
import { numberedOptions, recordPreferences } from "../../src/core/guard/recordPreferences";
import { settingOf } from "../../src/core/guard/match";
import { parseAdr } from "../../src/core/internal/adr";
import { decisionModelOf, readDecisionSentence } from "../../src/core/decisions";
import { findName, keysOf, tokensOf } from "../../src/core/guard/names";
import { commitEvidence, selectTerms } from "../../src/core/internal/gitTerms";
import { parseMarkdown, stripInline } from "../../src/core/internal/markdown";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import type { FusedEvidence } from "../../src/core/schemas";
import { readQuestion } from "../../src/core/synth/question";
import { keyFor, optionsFromQuestion } from "../../src/core/synth/rules";
import { adrChoice, clausePolarity, clauses, decisionSentenceChoice, mentions, stanceOf } from "../../src/core/synth/stance";
import { stems, words } from "../../src/core/synth/words";
import { buildRulesPlan, contentWords } from "../../src/core/terms";
import { sameSubject } from "../../src/core/sources/rank";
import { redactText } from "../../src/core/sources/spec";
import { createSampleRepo } from "../fixtures/sampleRepo";
import { git, makeTempDir } from "../helpers/gitRepo";

const BUDGET_MS = 50;
/**
 * Matchers that must read the whole text (word lists, line splits, comment stripping) cannot be constant-time;
 * for them the bound is linear: 50 ms per 64 KB. Those that read block by block (instruction-file rules: dozens of
 * cue patterns per bullet) are bounded per line as well, 50 ms per 1,000 lines, since a text of short lines is more
 * blocks per byte. A quadratic one exceeds either by orders of magnitude.
 */
const WHOLE_TEXT = new Set([
  "stance: clauses", "rules: keyFor", "words: words", "words: stems", "terms: contentWords", "terms: buildRulesPlan",
  "classify: stripCommentMarkers", "classify: mayBeOpenQuestionTodo", "external: planTokens", "external: makeExcerpt",
  "gitTerms: selectTerms", "gitTerms: commitEvidence", "markdown: parseMarkdown", "markdown: stripInline", "external: extractText (markdown)",
  "discovery: mentionedPaths", "sources: sameSubject",
  "guard: parseUnifiedDiff", "guard: ruleDecisions", "guard: readLine (code)", "guard: findName", "guard: proseOptionsOf",
]);
const PER_LINE = new Set(["guard: ruleDecisions"]);
const lineCount = (text: string) => text.split("\n").length;
const budgetFor = (name: string, text: string) =>
  WHOLE_TEXT.has(name) ? BUDGET_MS * Math.max(1, text.length / (64 * 1024), PER_LINE.has(name) ? lineCount(text) / 1000 : 0) : BUDGET_MS;
const RUNS = Number(process.env.FC_TEXT_RUNS ?? 4);
const MAX_BYTES = 1024 * 1024;
const KEY = { terms: ["postgresql", "postgres", "mongodb"] };

function evidence(title: string, excerpt: string, extra: Partial<FusedEvidence> = {}): FusedEvidence {
  return {
    id: "ev-000000000001", kind: "internal", expert: "git", source_type: "commit", path_or_url: "notes.txt", precision_class: "commit",
    title, excerpt, score: 1, rank: 1, fused_score: 1, experts: ["git"], commit: "0123456789abcdef0123", ...extra,
  };
}
const adrMeta = (title: string) => ({ path: "docs/adr/0001-x.md", title, status: "accepted" as const, supersedes: [], superseded_by: [], considered_options: [], section: "decision" });

/** Each exported text matcher, called the way the pipeline calls it on repository text. */
const MATCHERS: Record<string, (s: string) => unknown> = {
  "stance: mentions": (s) => mentions(s, KEY),
  "stance: clauses": (s) => clauses(s),
  "stance: clausePolarity": (s) => clausePolarity(s, KEY),
  "stance: stanceOf (commit)": (s) => stanceOf(evidence(s, s.slice(0, 400)), KEY),
  "stance: stanceOf (adr)": (s) => stanceOf(evidence(s, s, { source_type: "adr", expert: "adr", adr: adrMeta(s) }), KEY),
  "stance: adrChoice": (s) => adrChoice(evidence(s, s, { source_type: "adr", expert: "adr", adr: adrMeta(s) })),
  "stance: decisionSentenceChoice": (s) => decisionSentenceChoice(s),
  "question: readQuestion": (s) => readQuestion(s),
  "rules: optionsFromQuestion": (s) => optionsFromQuestion(s),
  "rules: keyFor": (s) => keyFor(s),
  "words: words": (s) => words(s),
  "words: stems": (s) => stems(s),
  "terms: contentWords": (s) => contentWords(s),
  "terms: buildRulesPlan": (s) => buildRulesPlan(s, s),
  "classify: stripCommentMarkers": (s) => stripCommentMarkers(s),
  "classify: mayBeOpenQuestionTodo": (s) => mayBeOpenQuestionTodo(s),
  "classify: plainTodoComment": (s) => plainTodoComment(s),
  "markdown: parseMarkdown": (s) => parseMarkdown(s),
  "markdown: stripInline": (s) => stripInline(s),
  "gitTerms: selectTerms": (s) => selectTerms([s], 1, 8, new Set()),
  "gitTerms: commitEvidence": (s) => commitEvidence({ sha: "0123456789abcdef", subject: s, body: s, files: [{ status: "M", path: "a.ts" }] }, selectTerms(["postgresql"], 1, 8, new Set()), 1),
  "external: planTokens": (s) => planTokens({ terms: [s], expansions: [s] }),
  "external: makeExcerpt": (s) => makeExcerpt(s.slice(0, 80), s, new Set(["postgresql"])),
  "external: extractText (markdown)": (s) => extractText(s, "text/markdown"),
  "discovery: mentionedPaths": (s) => mentionedPaths(s, "docs/README.md"),
  "sources: sameSubject": (s) => {
    const record = evidence(s, s, { source_type: "adr", expert: "docs", adr: { ...adrMeta(s), subject: s, chosen_option: s, considered_options: [s] } });
    return sameSubject(record, { ...record, decision_source: { name: "architecture" } });
  },
  "sources: redactText": (s) => redactText(`fatal: unable to access 'https://${s}@host/x.git': ${s}`),
  "guard: parseUnifiedDiff": (s) => parseUnifiedDiff(s),
  "guard: ruleDecisions": (s) => ruleDecisions({ path: "AGENTS.md", abs: "/x/AGENTS.md", bytes: s.length, hash: "", source_type: "agent-instructions", text: s }),
  "guard: keysOf": (s) => keysOf(s),
  "guard: readLine (manifest)": (s) => readLine("package.json", "manifest", s),
  "guard: readLine (code)": (s) => readLine("src/a.ts", "code", s),
  "guard: readLine (sbt)": (s) => readLine("project/Dependencies.scala", "code", s),
  "guard: readLine (module-info)": (s) => readLine("src/main/java/module-info.java", "code", s),
  "guard: proseOptionsOf": (s) => proseOptionsOf(parseAdr("docs/adr/0001-x.md", s), undefined),
  "guard: namesIn": (s) => namesIn(s),
  "guard: peerExclusions": (s) => peerExclusions(s, { start: 1, end: 1 }),
  "guard: labelledPurposes": (s) => labelledPurposes(s, { start: 1, end: 1 }),
  "guard: categoryExclusions": (s) => categoryExclusions(s, { start: 1, end: 1 }),
  "guard: readLine (infra)": (s) => readLine("Dockerfile", "infra", s),
  "guard: commentStart": (s) => commentStart("app.py", s),
  "guard: findName": (s) => findName(tokensOf(s), keysOf("Tailwind CSS")!),
  "guard: recordPreferences": (s) => recordPreferences(parseAdr("docs/adr/0001-x.md", `# T\n\n## Proposal\n\n- Use ${s.slice(0, 2000)}\n\n## Decision\n\nWe will use ${s.slice(0, 2000)}\n`)),
  "guard: numberedOptions": (s) => numberedOptions(parseAdr("docs/adr/0001-x.md", `# T\n\n## Context\n\n### 1. A\n\n${s.slice(0, 2000)}\n\n### 2. B\n\n\`b-c\`\n\n## Decision\n\nWe take option 1. ${s.slice(0, 2000)}\n`)),
  "guard: settingOf": (s) => settingOf(s),
  "guard: generatedFiles": (s) => generatedFiles(s),
  "guard: familyWords": (s) => familyWords("Docker Swarm", s),
  "codeUsage: isImportLine": (s) => isImportLine(s),
  "codeUsage: isImportLine (go)": (s) => isImportLine(s, "cmd/main.go"),
  // A record whose decision section, option headings and context hold the text (the model reads every record the
  // corpus finds, so each of its readings must stay linear in the text it is given).
  "decisions: decisionModelOf (sections)": (s) =>
    decisionModelOf(parseAdr("docs/adr/0001-x.md", `# T\n\nStatus: ${s.slice(0, 300)}\n\n## Context\n\n${s.slice(0, 2000)}\n\n## Proposed Decision: ${s.slice(0, 300)}\n\n${s.slice(0, 2000)}\n\n## Option A: ${s.slice(0, 1000)}\n\n## Option B: x\n`)),
  "decisions: readDecisionSentence": (s) => readDecisionSentence(s),
};

/** The shapes that made patterns backtrack: cue words with no partner, runs of one character, then a different one. */
const PIECES = [
  "we keep orders in postgresql and mongodb for the store ", "postgresql ", "mongodb ", "instead ", "instead of ", "rather than ",
  "in favour ", "replace postgresql ", "migrate from mongodb ", "is now considered ", "should not ", "use ", " ", "   ", "\t", "\n", "-", ".",
  "a.", "*", "**", "_", "#", "# ", "[a](", "](", "/", "//", "?", ":", "status: ", "a", "TODO ", "-->",
  "**a:** ", "use a for ", " for ", " is not allowed ", "No `", "`", "MUST NOT:\n- ",
];
const adversarial = fc
  .record({
    unit: fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }).map((xs) => xs.join("")),
    bytes: fc.integer({ min: 1_000, max: MAX_BYTES }),
    tail: fc.constantFrom("", "b", " instead", " with", "?", ")", "# x", "\n"),
  })
  .map(({ unit, bytes, tail }) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes - tail.length) + tail);

/** Fixed worst cases found while auditing (each took seconds to minutes at 16-150 KB before the fix). */
const KNOWN: string[] = [
  "Orders postgresql mongodb " + "we keep orders in postgresql and mongodb for the store ".repeat(2800),
  "replace postgresql mongodb ".repeat(6000),
  "migrate from postgresql mongodb ".repeat(5000),
  "[a](".repeat(4000),
  "# a" + " ".repeat(150_000) + "#b",
  ".".repeat(150_000) + "a",
  "// TODO should we " + " ".repeat(150_000) + "x",
  "a\n".repeat(75_000),
  "**Fixtures:** seedkit for model ".repeat(5000),
  "Use Pinject for a b c ".repeat(7000),
  "Raw Widget components are NOT allowed ".repeat(4000),
  "Agents MUST NOT:\n\n" + "- Add telemetry, analytics, or tracking\n".repeat(4000),
];

/**
 * CPU milliseconds of the call (user + system of this process, so other processes on a shared machine do not count),
 * best of up to three: a GC pause can stall one call, a super-linear matcher is slow every time.
 */
function elapsedMs(fn: () => unknown, budget: number): number {
  let best = Infinity;
  for (let k = 0; k < 3 && best > budget; k++) {
    const t = process.cpuUsage();
    fn();
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

describe("text matchers run in bounded time on any input up to 1 MB", () => {
  before(() => {
    // Load the tagger and compile the patterns once, so the budget measures matching, not module loading.
    for (const fn of Object.values(MATCHERS)) fn("Should we use A or B? # x\n\nWe will use A instead of B. [a](b.md)");
  });

  for (const [name, fn] of Object.entries(MATCHERS)) {
    test(name, () => {
      for (const text of KNOWN) {
        const ms = elapsedMs(() => fn(text), budgetFor(name, text));
        assert.ok(ms < budgetFor(name, text), `${name} took ${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 40))}… (${text.length} chars)`);
      }
      fc.assert(
        fc.property(adversarial, (text) => {
          const ms = elapsedMs(() => fn(text), budgetFor(name, text));
          assert.ok(ms < budgetFor(name, text), `${name} took ${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 40))}… (${text.length} chars)`);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe("the stance reader keeps its readings on normal text", () => {
  const pg = keyFor("PostgreSQL");
  const mongo = keyFor("MongoDB");
  test("pair patterns: the side the option sits on decides", () => {
    assert.equal(clausePolarity("Replace MongoDB with PostgreSQL for orders", mongo).polarity, -1);
    assert.equal(clausePolarity("Replace MongoDB with PostgreSQL for orders", pg).polarity, 1);
    assert.equal(clausePolarity("We migrated the order store from MongoDB to PostgreSQL", mongo).polarity, -1);
    assert.equal(clausePolarity("We migrated the order store from MongoDB to PostgreSQL", pg).polarity, 1);
    assert.equal(clausePolarity("Use PostgreSQL instead of MongoDB", pg).polarity, 1);
    assert.equal(clausePolarity("Use PostgreSQL instead of MongoDB", mongo).polarity, -1);
    assert.equal(clausePolarity("We dropped MongoDB in favour of PostgreSQL", pg).polarity, 1);
    assert.equal(clausePolarity("Instead of MongoDB, we will use PostgreSQL", mongo).polarity, -1);
  });
  test("a name written with a hyphen, a space, an underscore or nothing between its parts is one name", () => {
    const tools = { terms: ["adr-tools"] };
    assert.equal(mentions("We weighed ADR Tools and Log4brains.", tools), true);
    assert.equal(mentions("pip install adr_tools", tools), true);
    assert.equal(mentions("the adrtools binary", tools), true);
    assert.equal(mentions("an adr template", tools), false);
    assert.equal(mentions("madr-tools", tools), false);
    assert.equal(clausePolarity("Use ADR Tools to number the records", tools).polarity, 1);
  });
  test("a cue with nothing after it is no pair", () => {
    assert.equal(clausePolarity("PostgreSQL instead of", pg).polarity, 0);
  });
  test("a long unpunctuated clause is cut into bounded clauses, none longer than 500 characters", () => {
    const long = "we keep orders in postgresql and mongodb for the store ".repeat(100);
    const parts = clauses(long);
    assert.ok(parts.length >= 10);
    assert.ok(parts.every((p) => p.length <= 500));
    assert.equal(parts.join(" ").replace(/\s+/g, " "), long.trim());
  });
});

describe("one long commit subject does not stall a deliberation (issue 19)", () => {
  const Q = "Should we store orders in MongoDB or PostgreSQL?";
  const key = generateSigningKey();
  const run = async (repo: string) => {
    const t = performance.now();
    const out = await deliberate({ repo, question: Q, signingKey: key, useCache: false, writeReceipt: false, learning: false });
    return { out, ms: performance.now() - t };
  };

  test("a 150 KB unpunctuated subject naming both options", async () => {
    const plain = createSampleRepo();
    await run(plain); // warm the tagger and the module graph
    const without = await run(plain);

    const repo = createSampleRepo();
    const message = "Orders postgresql mongodb " + "we keep orders in postgresql and mongodb for the store ".repeat(2800);
    const file = join(makeTempDir("delib-msg-"), "message.txt");
    writeFileSync(file, message);
    writeFileSync(join(repo, "notes.txt"), "orders\n");
    git(repo, ["add", "notes.txt"]);
    git(repo, ["commit", "-q", "-F", file], { GIT_AUTHOR_DATE: "2024-06-01T00:00:00Z", GIT_COMMITTER_DATE: "2024-06-01T00:00:00Z" });
    const withLong = await run(repo);

    assert.equal(withLong.out.kind, "deliberated");
    if (withLong.out.kind !== "deliberated" || without.out.kind !== "deliberated") return;
    // The long commit is read (it is evidence) and the answer stands.
    const long = withLong.out.evidence.find((e) => e.commit && (e.title ?? "").startsWith("Orders postgresql mongodb"));
    assert.ok(long, "the long commit is among the evidence");
    assert.ok((long.title ?? "").length <= 300, "its title is cut to a line's length");
    assert.equal(withLong.out.payload.recommendation.option_id, without.out.payload.recommendation.option_id);
    // It took ~27 s before the fix; now it costs what the commit's git reads cost.
    assert.ok(withLong.ms < 5_000, `deliberation took ${withLong.ms.toFixed(0)} ms (without the commit: ${without.ms.toFixed(0)} ms)`);
    console.log(`# issue 19: deliberation ${without.ms.toFixed(0)} ms without the 150 KB commit, ${withLong.ms.toFixed(0)} ms with it`);
  });
});
