// A record that chose how updates reach the browser ("Live updates over server-sent events") turns down the other
// well-known push transports: "over" before a transport says what the choice runs on, never a rival it was preferred
// to. A record that chose a search library or an HTTP client does the same for its purpose. Real git.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { recordPeerExclusions } from "../../src/core/guard/peers";
import { createGitRepo, writeFiles } from "../helpers/gitRepo";
import { checkWorktree, strongFindings } from "../helpers/guardRepo";

async function check(repo: string): Promise<string[]> {
  return strongFindings(await checkWorktree(repo)).map((f) => `${f.kind} ${f.severity} ${f.file}:${f.line} ← ${f.decision.path}`);
}

const PUSH_RECORD = `# 4. Deliver live order updates over SSE

## Status

Accepted

## Decision

The dashboard receives live order updates over SSE from the API, through the eventsource client.
`;

const PACKAGE = `{
  "name": "dashboard",
  "dependencies": {
    "eventsource": "^2.0.2",
    "react": "^18.2.0"
  }
}
`;

const withDependency = (name: string) => PACKAGE.replace('"react": "^18.2.0"', `"react": "^18.2.0",\n    "${name}": "^1.0.0"`);

describe("guard: a record's chosen transport, search library or HTTP client turns down its peers", () => {
  test("'over SSE' names the transport the record chose; its rivals are turned down", () => {
    const names = recordPeerExclusions("Deliver live order updates over SSE", "Deliver live order updates over SSE", { start: 1, end: 1 }).map((x) => x.name);
    assert.ok(names.includes("Socket.IO") && names.includes("graphql-ws"), names.join(", "));
    assert.ok(!names.includes("Server-sent events"), "the chosen transport stays allowed");
    // "Postgres over MySQL" still turns MySQL down: only a transport after "over" is what something runs on.
    const db = recordPeerExclusions("Use Postgres over MySQL for the database", "Use Postgres over MySQL for the database", { start: 1, end: 1 }).map((x) => x.name);
    assert.ok(db.includes("MySQL") && !db.includes("PostgreSQL"), db.join(", "));
  });

  test("search and HTTP-client records name their purpose's peers", () => {
    const search = recordPeerExclusions("Use Lunr for search", "Use Lunr for search", { start: 1, end: 1 }).map((x) => x.name);
    assert.ok(search.includes("Fuse.js") && !search.includes("Lunr"), search.join(", "));
    const http = recordPeerExclusions("Use axios for HTTP requests", "Use axios for HTTP requests", { start: 1, end: 1 }).map((x) => x.name);
    assert.ok(http.includes("superagent") && !http.includes("axios"), http.join(", "));
  });

  test("adding a WebSocket transport is flagged against the record; a bump of the chosen client is not", async () => {
    const repo = createGitRepo([{ message: "init", files: { "docs/adr/0004-live-updates-over-sse.md": PUSH_RECORD, "package.json": PACKAGE } }]);
    writeFiles(repo, { "package.json": withDependency("socket.io-client") });
    assert.deepEqual(await check(repo), ["introduces-rejected-option high package.json:6 ← docs/adr/0004-live-updates-over-sse.md"]);
    writeFiles(repo, { "package.json": PACKAGE.replace('"eventsource": "^2.0.2"', '"eventsource": "^2.0.3"') });
    assert.deepEqual(await check(repo), []);
  });
});
