import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import {
  CLASSIFY_THRESHOLD,
  PLAIN_TODO_LINE,
  classifyQuestion,
  isOpenQuestionTodo,
  mayBeOpenQuestionTodo,
  plainTodoComment,
  questionStructure,
  stripCommentMarkers,
} from "../../src/core/classify";
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

// ---- The forms of issue 9 §6 ---------------------------------------------------------------------------------

const isOpen = (t: string) => classifyQuestion(t).class === O;

describe("classifyQuestion: plain alternatives are open questions, with or without 'should'", () => {
  const open: Array<[string, string]> = [
    ["X or Y for Z?", "SQLite or DuckDB for the local analytics cache?"],
    ["X or Y for Z, no question mark", "Celery or RQ for the thumbnail jobs"],
    ["X vs Y", "Jotai vs Zustand for the editor store"],
    ["should + passive + alternatives", "should retries be configured per call or in a shared policy?"],
    ["should + subject + alternatives", "Should the importer stream rows or load the whole file?"],
    ["should we + alternatives", "Should we render charts on the server or in the browser?"],
    ["do we + alternatives", "do we keep the bespoke router or move to React Router?"],
    ["considering + gerund", "considering moving our ETL scripts onto Airflow"],
    ["considering + noun", "considering Bun for the internal scripts"],
    ["thinking of moving to", "thinking of moving to Turborepo for the web packages"],
    ["thinking about", "we're thinking about swapping Jenkins for GitHub Actions"],
    ["wondering whether to", "wondering whether to keep the CSV export or drop it"],
    ["wondering if we should", "I'm wondering if we should cache tenant settings in memory"],
    ["not sure whether", "not sure whether to vendor the protobuf definitions or fetch them at build time"],
    ["torn between", "torn between feature flags and long-lived release branches"],
    ["decide between", "we need to decide between SES and Postmark for transactional mail"],
    ["A instead of B?", "Use Valibot instead of Zod for the form schemas?"],
    ["is it better", "Is it better to keep the i18n strings in YAML or in the code?"],
    ["would + evaluative", "Would an outbox table be enough here, or do we need Kafka?"],
    ["which + design noun", "Which queue should the notification service use?"],
    ["identifier, but a choice", "useMemo or a selector for the derived totals?"],
    ["opinions on", "opinions on moving the cron jobs to a workflow engine?"],
  ];
  for (const [form, text] of open) {
    it(`${form}: ${JSON.stringify(text)}`, () => {
      const r = classifyQuestion(text);
      assert.equal(r.class, O, `reasons: ${r.reasons.join("; ")} (${r.confidence})`);
      assert.ok(r.confidence >= CLASSIFY_THRESHOLD);
    });
  }

  it("names the alternatives and the frame it read", () => {
    const r = classifyQuestion("should retries be configured per call or in a shared policy?");
    assert.ok(r.reasons.some((x) => x.startsWith("alternatives: 'or' (normative")), r.reasons.join("; "));
    const d = classifyQuestion("considering moving our ETL scripts onto Airflow");
    assert.ok(d.reasons.includes("deliberation phrasing: 'considering'"), d.reasons.join("; "));
  });
});

describe("classifyQuestion: lookups and tasks are not open questions", () => {
  const notOpen: Array<[string, string]> = [
    ["path", "what is in src/server/routes/admin.ts?"],
    ["glob", "src/foo/*.ts"],
    ["glob in a question", "which files match `apps/*/src/**/*.spec.ts`?"],
    ["identifier", "getUserById"],
    ["call expression", "who calls foo_bar()?"],
    ["how does X behave", "how does the uploader behave when the disk is full?"],
    ["how is X done", "how is the CSRF token checked?"],
    ["where is X defined", "where is the RetryPolicy type defined?"],
    ["what does X return", "what does fetchInvoices return for an empty month?"],
    ["what happens when", "what happens when the queue is full?"],
    ["descriptive question with alternatives", "does the consumer ack before or after the handler runs?"],
    ["descriptive question with alternatives (factual)", "is the tenant id a string or a number in the events table?"],
    ["how does X decide between", "how does the resolver decide between the two config files?"],
    ["task: rename", "rename fetchUser to loadUser"],
    ["task: fix", "fix the flaky test"],
    ["task with 'with'", "replace this function with panic when that works"],
    ["task with 'instead of'", "make a local state instead of a getter"],
    ["task with 'or'", "generalize or upstream this optimization"],
    ["task compromise reads as a noun", "port the deploy script to Python"],
    ["task: drop support", "drop support for Node 18"],
    ["task: adopt X", "adopt the shared lint preset in the docs package"],
    ["statement with 'better than'", "this is better than giving every module access to the internals"],
  ];
  for (const [form, text] of notOpen) {
    it(`${form}: ${JSON.stringify(text)}`, () => {
      const r = classifyQuestion(text);
      assert.notEqual(r.class, O, `reasons: ${r.reasons.join("; ")} (${r.confidence})`);
    });
  }

  it("a path, a glob and an identifier are named in the reasons", () => {
    assert.ok(classifyQuestion("list every handler under src/handlers/*.ts").reasons.includes("glob: src/handlers/*.ts"));
    assert.ok(classifyQuestion("where is getUserById defined?").reasons.includes("identifier: getUserById"));
  });

  it("a task is named as a task", () => {
    const r = classifyQuestion("fix the flaky test");
    assert.ok(r.reasons.includes("task: 'fix the'"), r.reasons.join("; "));
  });
});

describe("classifyQuestion: any text", () => {
  it("never throws, and always returns a valid classification that abstains below the threshold", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.array(fc.constantFrom("should", "we", "or", "vs.", "Redis", "src/a.ts", "*.md", "fix", "?", ":", "getUser()", "whether", "to", "the", "\n", "// TODO:", "—"), { maxLength: 20 }).map((w) => w.join(" "))), (text) => {
        const c = ClassificationSchema.parse(classifyQuestion(text));
        return c.class === A ? c.confidence < CLASSIFY_THRESHOLD : c.confidence >= CLASSIFY_THRESHOLD;
      }),
      { numRuns: 300 },
    );
  });
});

describe("questionStructure", () => {
  it("reads the frame of each clause and its alternatives", () => {
    const [c] = questionStructure("Should logs be JSON or plain text in production?");
    assert.equal(c!.frame, "normative");
    assert.equal(c!.alternatives, "or");
    assert.equal(c!.question, true);
    const [d] = questionStructure("is the user id a UUID or an integer?");
    assert.equal(d!.frame, "descriptive");
    const [e] = questionStructure("rename parseConfig to loadConfig");
    assert.equal(e!.frame, "imperative");
    const [f] = questionStructure("Kafka vs. RabbitMQ for the audit events");
    assert.equal(f!.frame, "nominal");
    assert.equal(f!.alternatives, "vs");
  });

  it("splits clauses at a colon", () => {
    const cs = questionStructure("Let's discuss: do we cache at the edge or in the app?");
    assert.equal(cs.length, 2);
    assert.equal(cs[1]!.alternatives, "or");
  });

  it("value pairs and 'or not' are no alternatives", () => {
    for (const t of ["is it null or undefined?", "retry one or two times", "should we do it or not?"]) {
      assert.ok(questionStructure(t).every((c) => !c.alternatives), t);
    }
  });
});

describe("classifyQuestion: calibration", () => {
  const fixture = JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", "classifier-labelled.json"), "utf8")) as {
    items: Array<{ text: string; label: string; split: string }>;
  };

  it("the labelled fixture has at least 150 rows, a held-out split, and every label", () => {
    assert.ok(fixture.items.length >= 150);
    assert.ok(fixture.items.filter((r) => r.split === "heldout").length >= 50);
    for (const l of ["open", "lookup", "task", "thin"]) assert.ok(fixture.items.some((r) => r.label === l), l);
    assert.equal(new Set(fixture.items.map((r) => r.text)).size, fixture.items.length, "no duplicate rows");
  });

  for (const split of ["tune", "heldout"]) {
    it(`accuracy on the ${split} split is at least 0.9 (open-question vs everything else)`, () => {
      const rows = fixture.items.filter((r) => r.split === split);
      const ok = rows.filter((r) => isOpen(r.text) === (r.label === "open")).length;
      assert.ok(ok / rows.length >= 0.9, `${ok}/${rows.length}`);
    });
  }

  it("commits to a class only at or above the threshold, and abstains below it", () => {
    for (const r of fixture.items) {
      const c = classifyQuestion(r.text);
      if (c.class === A) assert.ok(c.confidence < CLASSIFY_THRESHOLD, `${r.text}: abstain at ${c.confidence}`);
      else assert.ok(c.confidence >= CLASSIFY_THRESHOLD, `${r.text}: ${c.class} at ${c.confidence}`);
    }
  });

  it("no confidence bucket is over-confident: share correct >= mean confidence - 0.05 (buckets of 5+)", () => {
    const committed = fixture.items.map((r) => ({ r, c: classifyQuestion(r.text) })).filter(({ c }) => c.class !== A);
    for (const [lo, hi] of [[0.6, 0.7], [0.7, 0.8], [0.8, 0.9], [0.9, 1.01]] as const) {
      const inB = committed.filter(({ c }) => c.confidence >= lo && c.confidence < hi);
      if (inB.length < 5) continue;
      const correct = inB.filter(({ r, c }) => (c.class === O) === (r.label === "open")).length / inB.length;
      const mean = inB.reduce((s, { c }) => s + c.confidence, 0) / inB.length;
      assert.ok(correct >= mean - 0.05, `bucket ${lo}-${hi}: ${correct.toFixed(2)} correct vs mean confidence ${mean.toFixed(2)}`);
    }
  });

  it("more evidence never lowers confidence: a decision tag raises an open question's confidence", () => {
    const plain = classifyQuestion("Redis or Memcached for the session cache?");
    const tagged = classifyQuestion("// TODO(decide): Redis or Memcached for the session cache?");
    assert.equal(plain.class, O);
    assert.ok(tagged.confidence >= plain.confidence);
  });

  it("thin or mixed text abstains below the threshold", () => {
    for (const t of ["hmm", "postgres", "nice work", "should we rename parseConfig in src/config.ts?"]) {
      const c = classifyQuestion(t);
      assert.equal(c.class, A, `${t}: ${c.class} ${c.confidence} (${c.reasons.join("; ")})`);
      assert.ok(c.confidence < CLASSIFY_THRESHOLD);
    }
  });
});

// ---- Plain TODO comments (the CodeLens predicate) ------------------------------------------------------------

describe("isOpenQuestionTodo", () => {
  const lensed = [
    "// TODO: should this be an error or a warning?",
    "// FIXME: u32 or usize for the offsets?",
    "# TODO: decide whether to keep the retry loop or move it into the client",
    "// TODO(alice): store the cache on disk instead?",
    "/* FIXME: Should we parse lazily instead of reading the whole file up front? */",
    "// TODO: BTreeMap vs HashMap here?",
    "-- TODO: should the audit rows live in this table or in a separate one?",
    "// TODO: wondering whether to batch these writes or send them one by one",
    "// FIXME: move the validation into the parser instead?",
  ];
  const notLensed = [
    "// TODO: replace this function with panic when that works",
    "// TODO: make a local state instead of a getter",
    "// FIXME: rename this to something clearer",
    "// TODO: fix the flaky test",
    "// TODO: should we remove this?", // a question, but no alternatives
    "// TODO: is this called before or after the layout pass?", // asks how the code behaves
    "// FIXME: we should use the type checker for this instead", // a statement
    "// TODO: support tabs or spaces in the indent detector", // a task
    "// TODO(bob): generalize or upstream this helper", // a task
    "// TODO: is it null or undefined here?", // values, not options
    "// TODO: where is this defined?",
    "// TODO",
    "",
  ];
  for (const c of lensed) it(`lens: ${JSON.stringify(c)}`, () => assert.equal(isOpenQuestionTodo(c), true, classifyQuestion(c).reasons.join("; ")));
  for (const c of notLensed) it(`no lens: ${JSON.stringify(c)}`, () => assert.equal(isOpenQuestionTodo(c), false, classifyQuestion(c).reasons.join("; ")));

  it("the cheap check never rejects a comment the full predicate accepts", () => {
    for (const c of [...lensed, ...notLensed]) if (isOpenQuestionTodo(c)) assert.ok(mayBeOpenQuestionTodo(c), c);
    fc.assert(
      fc.property(fc.array(fc.constantFrom("should", "we", "or", "use", "X", "Y", "instead", "?", "TODO:", "whether", "to", "the", "fix", "vs", "cache"), { maxLength: 12 }), (words) => {
        const c = `// ${words.join(" ")}`;
        return !isOpenQuestionTodo(c) || mayBeOpenQuestionTodo(c);
      }),
      { numRuns: 300 },
    );
  });
});

describe("plainTodoComment", () => {
  it("finds a plain TODO/FIXME after a comment opener and returns it from the opener on", () => {
    assert.equal(plainTodoComment("    let x = 1; // TODO: u64 or usize?"), "// TODO: u64 or usize?");
    assert.equal(plainTodoComment("# FIXME(ops): tabs or spaces?"), "# FIXME(ops): tabs or spaces?");
    assert.equal(plainTodoComment('const s = "TODO: not a comment";'), undefined);
    assert.equal(plainTodoComment("// todo: lowercase is prose"), undefined);
    assert.equal(PLAIN_TODO_LINE.flags.includes("g"), false, "no lastIndex state between lines");
  });
});
