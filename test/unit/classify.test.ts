import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { CLASSIFY_THRESHOLD, classifyQuestion, stripCommentMarkers } from "../../src/core/classify";
import { ClassificationSchema, type QuestionClass } from "../../src/core/schemas";

const O: QuestionClass = "open-question";
const L: QuestionClass = "lookup";
const A: QuestionClass = "abstain";

// Labelled queries: [text, expected class]. Tricky rows are commented.
const TABLE: Array<[string, QuestionClass]> = [
  // ---- Open design questions ----
  ["Should we adopt GraphQL for the public API?", O],
  ["Which pattern does our codebase favour for error handling?", O],
  ["Postgres or MySQL for the analytics store?", O],
  ["REST vs gRPC for internal services", O],
  ["Is it better to use a monorepo or separate repos?", O],
  ["tradeoff between polling and websockets for notifications", O], // no question mark
  ["How do other teams handle feature flags?", O],
  ["should we migrate to pnpm", O], // lowercase, no question mark
  ["TODO(decide): pick a queue: RabbitMQ or SQS", O], // tag, no question mark
  ["// TODO(decide): should we cache the user profile in Redis?", O],
  ["DECIDE: logging library for the CLI", O],
  ["OPEN QUESTION: keep the monolith or split into services", O],
  ["Use Zod instead of io-ts for runtime validation?", O],
  ["Is it worth using an ORM here, or should we stick with raw SQL?", O],
  ["switch to Vitest from Jest?", O],
  ["What's the best approach to state management in the webview?", O],
  ["# DECIDE: tabs or spaces", O],
  ["Would it be better to store sessions in Redis than in Postgres?", O],
  ["/* OPEN QUESTION: do we need a message broker at all? */", O],
  ["Kafka vs. RabbitMQ", O], // two words and a "vs."
  ["Should we move from REST to GraphQL, given our mobile clients?", O],
  ["Pros and cons of server-side rendering for the docs site", O],
  ["Which testing framework should we standardise on?", O],
  ["Is event sourcing worth the complexity for the billing service?", O],
  ["How should we version the public API?", O],
  ["useEffect or useReducer for form state?", O], // identifiers, but the shape is a choice
  ["Node.js or Deno for the CLI?", O], // "Node.js" is a product, not a file
  ["retry(); // TODO(decide): exponential backoff or fixed delay?", O], // tag behind code
  ["How do I choose between Redis and Memcached?", O], // "how do I" but about choosing
  ["How are other projects structuring their VS Code extensions?", O], // "VS Code" is not "vs"

  // ---- Lookups ----
  ["where is the retry logic defined?", L], // question mark on a lookup
  ["what does parseConfig return?", L], // question mark on a lookup
  ["Find the function that builds the receipt", L],
  ["go to src/core/schemas.ts", L],
  ["show me the tests for the classifier", L],
  ["which file defines ClassificationSchema?", L],
  ["how do I run the unit tests?", L],
  ["TypeError: Cannot read properties of undefined (reading 'map')", L],
  ["at Object.<anonymous> (/app/src/index.js:10:5)", L],
  [
    'Traceback (most recent call last):\n  File "main.py", line 3, in <module>\n    import foo\nModuleNotFoundError: No module named \'foo\'',
    L,
  ],
  ["src/core/config.ts", L],
  ["./scripts/build.mjs", L],
  ["Foo.bar() throws when called twice", L],
  ["get_user_by_id", L],
  ["parseConfig", L],
  ["Error: ENOENT: no such file or directory, open 'config.json'", L],
  ["why does the build fail on CI?", L],
  ["what is the default port for the dev server?", L],
  ["list all usages of sha256", L],
  ["who calls canonicalJson?", L],
  ["open package.json", L],
  ["npm run build fails with exit code 2", L],
  ["how do we deploy the extension?", L],
  ["fix null check in src/app.ts", L],
  ["TODO: fix null check in parseConfig", L], // plain TODO is not a decision tag
  ["where does getUserById live?", L],
  ["What does `canonicalJson` do?", L],
  ["line 42 of receipts/sign.ts", L],
  ["process.env.DELIBERATE_KEY is undefined", L],
  ["How does the cache work?", L], // explaining existing code, not choosing
  ["UserService.findById returns null", L],
  ["panic: runtime error: index out of range", L],
  ["show me where we decided to use Redis", L], // finding a past decision is a lookup
  ["find the ADR where we chose Postgres over MySQL", L],

  // ---- Abstain: too thin or genuinely mixed ----
  ["redis", A],
  ["logging", A],
  ["performance", A],
  ["the config", A],
  ["hmm", A],
  ["error handling", A],
  ["caching layer", A],
  ["database migrations", A],
  ["thoughts?", A],
  ["notes from standup", A],
  ["Kafka", A],
  ["Node.js", A],
  ["is it null or undefined?", A], // "X or Y" between values is not a design choice
  ["should we rename parseConfig in src/config.ts?", A], // decision phrasing vs. identifier + path
  ["// TODO(decide):", A], // a tag with no question
  ["", A],
  ["   \n\t ", A],
];

describe("classifyQuestion: labelled table", () => {
  it("has at least 45 rows covering all three classes", () => {
    assert.ok(TABLE.length >= 45);
    for (const cls of [O, L, A]) assert.ok(TABLE.some(([, c]) => c === cls), `no ${cls} rows`);
  });

  for (const [text, expected] of TABLE) {
    it(`${expected}: ${JSON.stringify(text).slice(0, 70)}`, () => {
      const got = classifyQuestion(text);
      assert.doesNotThrow(() => ClassificationSchema.parse(got));
      assert.equal(got.class, expected, `reasons: ${got.reasons.join("; ")} (confidence ${got.confidence})`);
      assert.ok(got.confidence >= 0 && got.confidence <= 1);
      if (expected === A) {
        assert.ok(got.confidence < CLASSIFY_THRESHOLD, `abstain confidence ${got.confidence}`);
      } else {
        assert.ok(got.confidence >= CLASSIFY_THRESHOLD, `decision confidence ${got.confidence}`);
        assert.ok(got.reasons.length > 0, "a decision must name its reasons");
        assert.ok(!got.reasons.includes("no rule fired"));
      }
      assert.ok(got.reasons.length > 0);
    });
  }
});

describe("classifyQuestion: confidence and reasons", () => {
  it("empty and whitespace text abstain with confidence 0 and reason 'empty text'", () => {
    for (const t of ["", "   ", "\n\t", "//", "# "]) {
      assert.deepEqual(classifyQuestion(t), { class: "abstain", confidence: 0, reasons: ["empty text"] });
    }
  });

  it("a decision tag plus decision phrasing is high confidence", () => {
    const r = classifyQuestion("// TODO(decide): should we cache the user profile in Redis?");
    assert.equal(r.class, O);
    assert.ok(r.confidence >= 0.9, `confidence ${r.confidence}`);
    assert.ok(r.reasons.includes("decision tag: TODO(decide)"));
    assert.ok(r.reasons.includes("decision phrasing: 'should we'"));
  });

  it("a stack trace is a confident lookup", () => {
    const r = classifyQuestion("TypeError: x is not a function\n    at run (src/app.js:10:5)");
    assert.equal(r.class, L);
    assert.ok(r.confidence >= 0.9, `confidence ${r.confidence}`);
    assert.ok(r.reasons.some((s) => s.startsWith("stack trace: ")));
    assert.ok(r.reasons.some((s) => s.startsWith("error message: ")));
  });

  it("names the file path it saw", () => {
    const r = classifyQuestion("go to src/app.ts");
    assert.ok(r.reasons.includes("file path: src/app.ts"), r.reasons.join("; "));
    assert.ok(r.reasons.includes("navigational phrasing: 'go to'"));
  });

  it("a single design word abstains with low confidence", () => {
    for (const t of ["redis", "logging"]) {
      const r = classifyQuestion(t);
      assert.equal(r.class, A);
      assert.ok(r.confidence < 0.4, `${t}: ${r.confidence}`);
    }
  });

  it("ignores a URL when looking for file paths", () => {
    const r = classifyQuestion("should we adopt the approach in https://example.com/docs/guide.html?");
    assert.equal(r.class, O);
    assert.ok(!r.reasons.some((s) => s.startsWith("file path")), r.reasons.join("; "));
  });

  it("reads only the head of a very long text, and says so", () => {
    const r = classifyQuestion(`Should we adopt Kafka for events? ${"a.b/".repeat(50_000)}`);
    assert.equal(r.class, O);
    assert.ok(r.reasons.includes("long text: read the first 2000 characters"), r.reasons.join("; "));
  });

  it("is deterministic", () => {
    for (const [text] of TABLE) assert.deepEqual(classifyQuestion(text), classifyQuestion(text));
  });
});

describe("stripCommentMarkers", () => {
  const cases: Array<[string, string]> = [
    ["// TODO(decide): should we adopt pnpm?", "should we adopt pnpm?"],
    ["# DECIDE: tabs or spaces", "tabs or spaces"],
    ["/* OPEN QUESTION: keep the monolith? */", "keep the monolith?"],
    ["/**\n * QUESTION: which queue\n * for jobs?\n */", "which queue for jobs?"],
    ["-- TODO: index this column", "index this column"],
    ["  /// todo(Decide) pick one", "pick one"],
    ["retry(); // TODO(decide): backoff or fixed delay?", "backoff or fixed delay?"],
    ["<!-- DECIDE: sidebar or tabs -->", "sidebar or tabs"],
    ["plain text stays", "plain text stays"],
    ["--force is a flag, #123 is an issue", "--force is a flag, #123 is an issue"],
    ["Decide whether to shard", "Decide whether to shard"], // "Decide" without a colon is prose
    ["todo app: react or svelte?", "todo app: react or svelte?"], // lowercase todo is prose
    ["", ""],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => assert.equal(stripCommentMarkers(input), expected));
  }
});
