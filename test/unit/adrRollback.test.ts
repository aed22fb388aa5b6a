// An ADR export that fails after writing is rolled back onto the files it wrote. On a real git repository whose
// superseded ADR is a symlink to a record elsewhere in the repository: the export writes through the link (the real
// record is marked superseded), then recording the export in the receipt fails (its lock is held); the rollback
// restores the real record and leaves the link a link, instead of replacing the link with a copy.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { exportAdr } from "../../src/core/adrExport";
import { deliberate } from "../../src/core/pipeline";
import { generateSigningKey } from "../../src/core/receipts/signing";
import { LockTimeoutError, receiptPath, recordPick, withFileLock } from "../../src/core/receipts/store";
import { EVENTS_Q, RABBIT_ADR, createLayoutRepo } from "../fixtures/adrLayouts";
import { git } from "../helpers/gitRepo";

const key = generateSigningKey();

describe("ADR export rollback", () => {
  it("restores a superseded ADR reached through a symlink at its real path, and keeps the link", async () => {
    const repo = createLayoutRepo("madr");
    const linkPath = RABBIT_ADR.madr;
    const realRel = "records/rabbit.md";
    mkdirSync(join(repo, "records"), { recursive: true });
    renameSync(join(repo, linkPath), join(repo, realRel));
    symlinkSync(relative(dirname(join(repo, linkPath)), join(repo, realRel)), join(repo, linkPath));
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "the RabbitMQ record lives in records/, linked from the ADR folder"]);
    const original = readFileSync(join(repo, realRel), "utf8");

    const out = await deliberate({ repo, question: EVENTS_Q, signingKey: key, force: true });
    assert.equal(out.kind, "deliberated");
    if (out.kind !== "deliberated") return;
    const kafka = out.payload.options.find((o) => /kafka/i.test(o.title))!;
    await recordPick(repo, out.receipt.receipt_id, { option_id: kafka.id, reason: "Replaying order events is now required." }, key);

    // Hold the receipt's lock, so recording the export fails after the files were written.
    const failed = await withFileLock(receiptPath(repo, out.receipt.receipt_id), () =>
      exportAdr(repo, out.receipt.receipt_id, { ownPublicKeyPem: key.publicKeyPem, record: key, lockTimeoutMs: 300 }).then(
        () => undefined,
        (err: Error) => err,
      ),
    );
    assert.ok(failed instanceof LockTimeoutError, `expected the record step to time out, got ${String(failed)}`);
    assert.ok(lstatSync(join(repo, linkPath)).isSymbolicLink(), "the link is still a link");
    assert.equal(readFileSync(join(repo, realRel), "utf8"), original, "the real record is back as it was");
    assert.equal(git(repo, ["status", "--porcelain", "--", "docs", "records"]).trim(), "", "nothing else left behind");
  });
});
