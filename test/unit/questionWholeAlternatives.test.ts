// Each alternative a question names is read as a whole phrase of its own (issue 21, item 2): list items that open
// with a quantity, questions asked one after another, a setting written as
// "key: value", what a drop is followed by, the act chosen after "standardise on", a gerund's object after
// "instead of", and the complement of "support for".
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readQuestion } from "../../src/core/synth/question";

const titles = (q: string) => readQuestion(q).alternatives.map((a) => a.title);

describe("alternatives read whole", () => {
  test("a list item that opens with a quantity is its own alternative, not the tail of the one before", () => {
    assert.deepEqual(titles("Should we publish one combined bundle, separate bundles in separate registries, or several bundles in one workspace?"), [
      "Publish one combined bundle",
      "Publish separate bundles in separate registries",
      "Publish several bundles in one workspace",
    ]);
  });

  test("questions asked one after another are one alternative each, with their own subjects", () => {
    const t = titles("Should each service get its own queue, should we route every event through one broker, or should a single gateway deliver all the messages?");
    assert.equal(t.length, 3);
    assert.equal(t[0], "Each service gets its own queue");
    assert.equal(t[1], "Route every event through one broker");
    assert.equal(t[2], "A single gateway delivers all the messages");
  });

  test("a fronted clause before two questions belongs to neither; coordinated verbs agree with the subject", () => {
    const t = titles("When a worker stalls on a slow disk, should the scheduler itself notice that and restart it, or should the supervisor detect it from heartbeats?");
    assert.deepEqual(t, ["The scheduler itself notices that and restarts it", "The supervisor detects it from heartbeats"]);
  });

  test("a 'key: value' setting inside the asking clause does not split it", () => {
    const s = readQuestion("Should the operator deploy the agent as a DaemonSet with hostNetwork: true, so each node reports its own metrics?");
    assert.notEqual(s.form, "open");
    assert.match(s.target?.title ?? "", /DaemonSet with hostNetwork/);
  });

  test("'drop A and build with B' moves to B", () => {
    const s = readQuestion("Should the docs site drop Gatsby and build with Astro as static pages?");
    assert.equal(s.form, "migration");
    assert.equal(s.incumbent?.title, "Keep Gatsby");
    assert.equal(s.target?.title, "Drop Gatsby and build with Astro as static pages");
    assert.ok(s.target?.terms.includes("astro"));
    assert.ok(!s.target?.inverse);
  });

  test("after 'standardise on' the act chosen is the frame every name shares", () => {
    assert.deepEqual(titles("Should we standardise on wrapping errors with `fmt.Errorf` or `errors.Join` in our Go services?"), [
      "Wrap errors with fmt.Errorf",
      "Wrap errors with errors.Join",
    ]);
  });

  test("after 'instead of', a gerund with a bare object is what is done today", () => {
    const s = readQuestion("Should the importer adopt stream_parse for the large feeds, instead of loading whole files into memory?");
    assert.equal(s.incumbent?.title, "Load whole files into memory");
    assert.match(s.target?.title ?? "", /^Adopt stream_parse/);
  });

  test("a noun that stands for its complement keeps it; a participle clause on the proposal stays with it", () => {
    assert.deepEqual(titles("Should we adopt native support for the OpenMetrics format?"), ["Adopt native support for the OpenMetrics format"]);
    assert.deepEqual(titles("Should we adopt date-based release tags like 2024.05, bumping a suffix only when a hotfix ships?"), [
      "Adopt date-based release tags like 2024.05, bumping a suffix only when a hotfix ships",
    ]);
  });

  test("'switch X from A to B' keeps X on A", () => {
    const s = readQuestion("Should we switch the session store for the admin app from Memcached to Redis?");
    assert.equal(s.incumbent?.title, "Keep the session store for the admin app on Memcached");
    assert.equal(s.target?.title, "Switch to Redis");
  });

  test("titles say 'its own X' and state what an 'is there' question asks", () => {
    assert.deepEqual(titles("Should we add a region column to the shared tables, or give each region a schema of its own?"), [
      "Add a region column to the shared tables",
      "Give each region its own schema",
    ]);
    const t = titles("Should a plugin register its listener on the legacy hook as well as the event hook, or is there only one hook per event now?");
    assert.match(t[1], /^There is only one hook per event/);
  });

  test("a lower-case name the tagger conjugated from an unknown root stays a name against another name", () => {
    assert.deepEqual(titles("Use valkey or memcached?"), ["Valkey", "Memcached"]);
    // A known verb keeps its reading.
    assert.deepEqual(titles("Should old logs be compressed or deleted?"), ["Compress old logs", "Delete old logs"]);
  });

  test("a relative clause with its own subject stays with the alternative it picks out", () => {
    assert.deepEqual(titles("Should we use NATS, or a broker that we host ourselves?"), ["NATS", "A broker that we host ourselves"]);
  });
});
