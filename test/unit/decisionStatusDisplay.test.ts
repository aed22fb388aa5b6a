// How a superseded record's successor is named in its status: by file name, or by its folder when the record is the
// folder's index (src/core/decisions/status.ts displayStatus).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { displayStatus } from "../../src/core/decisions";

describe("the successor named in a superseded status", () => {
  test("a record file is named by its file name", () => {
    assert.equal(displayStatus("superseded", "Superseded", ["docs/adr/0012-move-queues.md"]), "superseded by 0012-move-queues.md");
  });

  test("a record kept as its folder's README is named by the folder", () => {
    assert.equal(displayStatus("superseded", "Superseded", ["rfcs/071-shared-logging/README.md"]), "superseded by 071-shared-logging");
    assert.equal(displayStatus("superseded", undefined, ["rfcs/009-auth/index.md", "rfcs/010-sessions.md"]), "superseded by 009-auth, 010-sessions.md");
  });

  test("a successor known only by its title keeps the title", () => {
    assert.equal(displayStatus("superseded", "Superseded", ["title:Use one queue"]), 'superseded by "Use one queue"');
  });
});
