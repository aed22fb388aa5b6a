// `deliberate diff <receipt_a> <receipt_b> [--json] [--repo DIR]`: compares two deliberations of one question
// (core/receipts/diff.ts). Receipts of different questions are bad input (exit 2). A receipt that does not verify —
// invalid signature, a signer that is neither your key nor an allowed signer, changed evidence — is still compared,
// but said so on stderr, in the text and in the JSON (`signatures`: its trust state; `verification`: the full view),
// since its content is unproven.
import { diffReceipts, describeDiff, sameQuestion } from "../core/receipts/diff";
import { trustViewOf, unverifiedTag } from "../core/receipts/readerTrust";
import { loadKeyFileIfExists } from "../core/receipts/signing";
import { DEFAULT_RECEIPTS_DIR, ReceiptInputError, loadReceiptEntry, readEvidence, receiptPath, verifyEntry, type ReceiptEntry } from "../core/receipts/store";
import { readAllowedSigners } from "../core/receipts/trust";
import { resolveInside } from "../core/contain";
import { terminalSafeJson, terminalSafeLine } from "../core/sanitize";
import type { FusedEvidence, Receipt } from "../core/schemas";
import { UsageError, parseOptions, repoOption } from "./common";

export const DIFF_USAGE = "deliberate diff <receipt_a> <receipt_b> [--json] [--repo DIR]";

export interface DiffIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** A receipt by id (a path to a receipt file under the receipts folder is accepted too). */
async function loadOne(repo: string, arg: string): Promise<Extract<ReceiptEntry, { state: "ok" }>> {
  const id = arg.replace(/^.*[\\/]/, "").replace(/\.json$/, "");
  try {
    receiptPath(repo, id, DEFAULT_RECEIPTS_DIR);
  } catch {
    throw new ReceiptInputError(`invalid receipt id: ${JSON.stringify(arg.slice(0, 100))}`);
  }
  if (!(await resolveInside(repo, `${DEFAULT_RECEIPTS_DIR}/${id}.json`))) throw new ReceiptInputError(`unknown receipt: ${id}`);
  // By id: a file whose name is not the receipt_id inside it is a copy, and comes back corrupt.
  const entry = await loadReceiptEntry(repo, id, DEFAULT_RECEIPTS_DIR);
  if (entry.state === "corrupt") throw new ReceiptInputError(`receipt ${id} is corrupt: ${entry.error}`);
  return entry;
}

async function evidenceOf(repo: string, r: Receipt): Promise<FusedEvidence[] | undefined> {
  return readEvidence(repo, r.evidence_ref, DEFAULT_RECEIPTS_DIR).catch(() => undefined);
}

export async function diffCommand(argv: string[], io: DiffIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, { repo: { type: "string" }, json: { type: "boolean" } }, { usage: DIFF_USAGE });
  if (positionals.length !== 2) throw new UsageError(`diff needs two receipt ids (usage: ${DIFF_USAGE})`);
  const repo = repoOption(values.repo as string | undefined);
  const [a, b] = await Promise.all(positionals.map((p) => loadOne(repo, p)));
  if (!sameQuestion(a.receipt, b.receipt)) {
    throw new ReceiptInputError(`the receipts answer different questions ("${a.receipt.question.slice(0, 80)}" and "${b.receipt.question.slice(0, 80)}"); diff compares two deliberations of one question`);
  }
  const [evA, evB] = await Promise.all([evidenceOf(repo, a.receipt), evidenceOf(repo, b.receipt)]);
  const diff = diffReceipts(a.receipt, b.receipt, { first: evA, second: evB });
  const own = loadKeyFileIfExists(undefined);
  const signers = await readAllowedSigners(repo, DEFAULT_RECEIPTS_DIR);
  const views = await Promise.all([a, b].map(async (e) => trustViewOf(await verifyEntry(repo, e, { ownPublicKeyPem: own?.publicKeyPem, signers, citations: false }))));
  const verification = Object.fromEntries([a, b].map((e, i) => [e.receipt_id, views[i]]));
  const signatures = Object.fromEntries([a, b].map((e, i) => [e.receipt_id, views[i].state]));
  const unverified = [a, b].flatMap((e, i) => (views[i].trusted ? [] : [`receipt ${e.receipt_id} is ${unverifiedTag(views[i])}`]));
  for (const line of unverified) io.err(terminalSafeLine(`deliberate: warning: ${line}; compared anyway`));
  if (values.json) {
    io.out(terminalSafeJson(JSON.stringify({ ...diff, signatures, verification }, null, 2)));
    return 0;
  }
  for (const line of unverified) io.out(terminalSafeLine(`Unverified: ${line}; its content and pick are not proven`));
  io.out(terminalSafeLine(`Question: ${diff.question}`));
  for (const line of describeDiff(diff)) io.out(terminalSafeLine(line));
  return 0;
}
