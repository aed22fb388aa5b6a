// The guard's quick pre-check before `findName` (src/core/guard/names.ts: indexTokens + mayName): it may say "maybe"
// too often but never "no" where findName finds the name, or a finding would silently go missing. Checked on many
// generated token lists and names (aliases, suffixes, compact and package-shaped names, short tokens, words such as
// "constructor" that name an Object property) against findName itself.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { findName, indexTokens, keysOf, mayName, tokensOf } from "../../src/core/guard/names";

const VOCABULARY = [
  "pg", "postgres", "postgresql", "ioredis", "redis", "redisjs", "mongoose", "mongodb", "sqlite3", "sqlite", "mysql2", "mysql",
  "tailwind", "tailwindcss", "tail", "react", "reactjs", "reactive", "react18", "query", "reactquery", "vue", "vuex", "d3", "d3js",
  "webview", "ui", "toolkit", "vscode", "lodash", "lodashes", "winston", "pino", "log4j", "log4j2", "slf4j", "zustand", "redux",
  "reduxjs", "constructor", "__proto__", "tostring", "hasownproperty", "x", "io", "socket", "socketio", "graphql", "graph", "ql",
  "kafka", "rabbitmq", "nats", "axios", "fetch", "got", "jquery", "moment", "momentjs", "date", "fns", "datefns", "a", "ab", "abc",
  // Pieces that only spell a compact form together, starting with a short one ("gok" + "it" is "gokit").
  "gok", "it", "go", "kit", "for", "ce", "dat", "efns", "h2", "h2database", "h2db", "s3", "s3client", "vuetify",
];
const NAMES = [
  "PostgreSQL", "Redis", "MongoDB", "SQLite", "MySQL", "Tailwind CSS", "React Query", "React", "Vue", "Vuex", "D3", "d3.js",
  "@vscode/webview-ui-toolkit", "Lodash", "winston", "pino", "log4j2", "SLF4J", "Zustand", "Redux Toolkit", "Socket.IO",
  "GraphQL", "Kafka", "RabbitMQ", "NATS", "axios", "jQuery", "Moment.js", "date-fns", "constructor", "to string", "Date FNS",
  "abc", "a b c", "io", "tail wind", "reactive streams", "Go Kit", "D3 Force",
];

/** A small deterministic generator (no Math.random: a failure must reproduce). */
function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("the guard's name pre-check", () => {
  test("never rules out a name findName finds (20,000 generated lines × names)", () => {
    const rnd = generator(22);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    // Besides the names' keys, short ones as a chosen option may have ("H2", "S3"), and a three-letter one.
    const keys = [...NAMES.map((n) => keysOf(n)).filter((k) => k !== undefined), { display: "H2", tokens: ["h2"] }, { display: "S3", tokens: ["s3"] }, { display: "Vue", tokens: ["vue"] }];
    assert.ok(keys.length > 25, "most names give keys");
    let found = 0;
    for (let i = 0; i < 20_000; i++) {
      const tokens = tokensOf(Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => pick(VOCABULARY)).join(rnd() < 0.5 ? " " : "-"));
      const ix = indexTokens(tokens);
      for (const k of keys) {
        const hit = findName(tokens, k);
        if (hit === undefined) continue;
        found++;
        assert.ok(mayName(ix, k), `mayName ruled out ${JSON.stringify(k)} in ${JSON.stringify(tokens)} (findName: ${hit})`);
      }
    }
    assert.ok(found > 2000, `enough matches to mean something: ${found}`);
  });

  test("and does rule out what cannot match", () => {
    const ix = indexTokens(tokensOf('import { format } from "date-fns";'));
    assert.equal(mayName(ix, keysOf("Tailwind CSS")!), false);
    assert.equal(mayName(ix, keysOf("winston")!), false);
    assert.equal(mayName(ix, keysOf("date-fns")!), true);
    assert.equal(mayName(indexTokens(["pg"]), keysOf("PostgreSQL")!), true, "an alias");
    assert.equal(mayName(indexTokens(["constructor"]), keysOf("Tailwind CSS")!), false);
  });
});
