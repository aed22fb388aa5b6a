// What keeps a fresh CLI process cheap (issue 20) without changing any answer: the docs corpus's phrase postings stored
// as flat arrays and read in place, the CLI bundle rewritten as pure ASCII with every regular expression meaning the
// same, and compromise's tagger model carried precomputed in the bundle.
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { corpusStats, packCorpusStats, phraseScores, questionBigrams, unpackCorpusStats } from "../../src/core/internal/docStats";

/** The build's own scripts (plain .mjs, no type declarations), imported as the build imports them. */
const script = (name: string): Promise<unknown> => import(join(__dirname, "..", "..", "scripts", name));

const TEXTS = [
  "We use the single active consumer of RabbitMQ for the task manager. Single active consumer keeps order.",
  "Exclusive queue held by one node; the task manager polls it.",
  "Bloom filter for the deduplication of mail. A bloom filter is probabilistic.",
  "Nothing about queues here, only the admin tasks and their web admin routes.",
  "Event bus over RabbitMQ; event bus listeners run in order.",
];

describe("phrase postings, stored flat", () => {
  const built = corpusStats(TEXTS);
  const loaded = unpackCorpusStats(deserialize(serialize(packCorpusStats(built))));

  it("give every phrase the same documents after a round trip through the snapshot format", () => {
    assert.ok(loaded);
    const phrases = [...built.bigramDocs.entries()];
    assert.ok(phrases.length > 20);
    for (const [phrase, docs] of phrases) assert.deepEqual([...(loaded.bigramDocs.get(phrase) ?? [])], [...docs], phrase);
    assert.deepEqual([...loaded.bigramDocs.entries()].map(([p]) => p).sort(), phrases.map(([p]) => p).sort());
    assert.equal(loaded.bigramDocs.get("no such phrase"), undefined);
    assert.equal(loaded.bigramDocs.get(""), undefined);
    assert.deepEqual(loaded.df, built.df);
    assert.equal(loaded.n, built.n);
  });

  it("score a question's phrases exactly as the statistics they were packed from", () => {
    for (const q of ["Should we keep the single active consumer or an exclusive queue?", "Is a bloom filter right for mail deduplication?", "event bus or task manager?"]) {
      assert.deepEqual([...phraseScores(questionBigrams(q), loaded!)], [...phraseScores(questionBigrams(q), built)], q);
    }
  });

  it("refuse a stored shape they did not write (the old Map form, torn arrays)", () => {
    const packed = packCorpusStats(built);
    assert.equal(unpackCorpusStats({ n: built.n, df: built.df, bigramDocs: built.bigramDocs }), undefined);
    assert.equal(unpackCorpusStats({ ...packed, phraseStart: packed.phraseStart.subarray(1) }), undefined);
    assert.equal(unpackCorpusStats({ ...packed, phraseDocs: packed.phraseDocs.subarray(1) }), undefined);
    assert.equal(unpackCorpusStats(undefined), undefined);
  });
});

describe("the CLI bundle as pure ASCII", () => {
  it("escapes regular expressions and comments, and every expression still matches what it matched", async () => {
    const { asciiOnlyBundle } = (await script("asciiBundle.mjs")) as { asciiOnlyBundle(file: string): string };
    const dir = mkdtempSync(join(os.tmpdir(), "ascii-bundle-"));
    try {
      const file = join(dir, "bundle.js");
      const source = [
        "// a comment with an em dash — and é",
        "const dash = /[-–—]/;",
        "const identity = /a\\–b/;",
        "const astral = /^👋+$/u;",
        "const classU = /[👋é]/u;",
        "const wide = /^(pub(licité)?|广告)$/iu;",
        'const str = "\\u00e9" + "\\u2014"; // strings arrive escaped from esbuild',
        "module.exports = { dash, identity, astral, classU, wide, str };",
      ].join("\n");
      writeFileSync(file, source);
      const before = new Function("module", `${source}; return module.exports;`)({ exports: {} }) as Record<string, RegExp | string>;
      assert.equal(asciiOnlyBundle(file), "escaped");
      const out = readFileSync(file, "utf8");
      assert.doesNotMatch(out, /[^\x00-\x7f]/);
      const after = new Function("module", `${out}; return module.exports;`)({ exports: {} }) as Record<string, RegExp | string>;
      const samples = ["–", "—", "-", "a–b", "ab", "👋👋", "👋", "é", "x", "publicité", "PUB", "广告", "a\\–b"];
      for (const key of ["dash", "identity", "astral", "classU", "wide"]) {
        const a = before[key] as RegExp;
        const b = after[key] as RegExp;
        assert.equal(b.flags, a.flags, key);
        for (const s of samples) assert.equal(b.test(s), a.test(s), `${key} on ${JSON.stringify(s)}`);
      }
      assert.equal(after.str, before.str);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves a file alone when a non-ASCII character stands outside a regular expression or comment", async () => {
    const { asciiOnlyBundle } = (await script("asciiBundle.mjs")) as { asciiOnlyBundle(file: string): string };
    const dir = mkdtempSync(join(os.tmpdir(), "ascii-bundle-"));
    try {
      const file = join(dir, "bundle.js");
      const source = "const raw = String.raw`é—`;\nconst re = /—/;\n";
      writeFileSync(file, source);
      assert.match(asciiOnlyBundle(file), /left as is/);
      assert.equal(readFileSync(file, "utf8"), source);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("compromise's tagger model, precomputed at build", () => {
  it("deserialises to exactly the model compromise computes", async () => {
    const { compromisePrecomputedModel } = (await script("compromiseModel.mjs")) as {
      compromisePrecomputedModel: { setup(b: { onLoad(o: unknown, f: (a: { path: string; suffix?: string }) => Promise<{ contents: string } | undefined>): void }): void };
    };
    let load: ((a: { path: string; suffix?: string }) => Promise<{ contents: string } | undefined>) | undefined;
    compromisePrecomputedModel.setup({ onLoad: (_o, f) => (load = f) });
    const path = join(__dirname, "..", "..", "node_modules", "compromise", "src", "2-two", "preTagger", "model", "index.js");
    assert.equal(await load!({ path, suffix: "?computed" }), undefined);
    const contents = (await load!({ path }))!.contents;
    const packed = /Buffer\.from\("([A-Za-z0-9+/=]+)", "base64"\)/.exec(contents)?.[1];
    assert.ok(packed);
    const computed = (await import(path)) as { default: unknown };
    assert.deepEqual(deserialize(Buffer.from(packed, "base64")), computed.default);
    assert.match(contents, /require\(".*index\.js\?computed"\)/);
  });
});

describe("compromise's model merge with plain assignments", () => {
  it("rewrites the installed compromise's mergeDeep, which then merges exactly as before", async () => {
    const { plainAssignmentMerge } = (await script("compromiseModel.mjs")) as { plainAssignmentMerge(source: string): string | undefined };
    const source = readFileSync(join(__dirname, "..", "..", "node_modules", "compromise", "src", "API", "extend.js"), "utf8");
    const rewritten = plainAssignmentMerge(source);
    assert.ok(rewritten, "compromise's extend.js no longer reads as expected: the rewrite would silently not apply");
    assert.doesNotMatch(rewritten, /Object\.assign\(model, \{ \[key\]/);
    const mergeOf = (text: string) => {
      const body = /(const isObject[\s\S]*?function mergeDeep[\s\S]*?\n}\n)/.exec(text)?.[1];
      assert.ok(body);
      return new Function(`${body}; return mergeDeep;`)() as (a: object, b: object) => object;
    };
    const plugin = { one: { lexicon: { walk: "Verb", their: ["Possessive", "Pronoun"], __proto__x: "Noun" }, tags: { A: { isA: "B" } } }, two: { n: 2, list: [1, 2] } };
    const start = () => ({ one: { lexicon: { run: "Verb" } }, three: {} });
    assert.deepEqual(mergeOf(rewritten)(start(), plugin), mergeOf(source)(start(), plugin));
  });

  it("leaves a source it was not written for alone", async () => {
    const { plainAssignmentMerge } = (await script("compromiseModel.mjs")) as { plainAssignmentMerge(source: string): string | undefined };
    assert.equal(plainAssignmentMerge("function mergeDeep(model, plugin) { return Object.assign(model, plugin) }"), undefined);
  });
});

describe("the guarded HTTP client", () => {
  it("loads Node's HTTP, HTTPS and DNS modules only when it first fetches", () => {
    // A fresh process: this one may have loaded them for other reasons.
    const loaded = execFileSync(
      process.execPath,
      ["--import", "tsx", "-e", `require(${JSON.stringify(join(__dirname, "..", "..", "src", "core", "external", "fetch"))}); process.stdout.write(JSON.stringify(process.moduleLoadList))`],
      { cwd: join(__dirname, "..", ".."), encoding: "utf8" },
    );
    const network = (JSON.parse(loaded) as string[]).filter((m) => /^NativeModule (https?|dns|dns\/promises)$/.test(m));
    assert.deepEqual(network, []);
  });
});
