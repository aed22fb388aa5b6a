// Receipts on disk: `<repo>/<receiptsDir>/<receipt_id>.json`, fused evidence content-addressed under
// `evidence/<evidence_ref>.json`, and the turn cache under `cache/`. Every write is temp-file + rename, and
// read-modify-write (a pick) holds a lock file, so concurrent writers never leave a torn or mixed receipt.
import { existsSync, promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { canonicalJson, sha256 } from "../hash";
import {
  FusedEvidenceSchema,
  ReceiptSchema,
  UNDECIDABLE,
  formatZodError,
  type FusedEvidence,
  type Receipt,
} from "../schemas";
import { signReceipt, verifyReceiptSignature, type SigningKey } from "./signing";
import { z } from "zod";

export const DEFAULT_RECEIPTS_DIR = ".deliberations";

export function receiptsFolder(repo: string, dirName = DEFAULT_RECEIPTS_DIR): string {
  return join(repo, dirName);
}

const RECEIPT_ID = /^[A-Za-z0-9_-]{6,80}$/;

export function newReceiptId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z").replace("T", "-");
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}

/** Writes a file atomically: a temp file in the same folder, fsync, then rename over the target. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  await fs.mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await fs.open(tmp, "wx", 0o644);
  try {
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Serialises read-modify-write on one file across processes with an O_EXCL lock file; stale locks expire. */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      const handle = await fs.open(lock, "wx");
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const age = await fs.stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > 30_000) await fs.rm(lock, { force: true });
      else if (Date.now() - started > timeoutMs) throw new Error(`receipt is locked by another writer: ${lock}`);
      else await new Promise((r) => setTimeout(r, 15 + Math.random() * 30));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { force: true });
  }
}

export function receiptPath(repo: string, receiptId: string, dirName = DEFAULT_RECEIPTS_DIR): string {
  if (!RECEIPT_ID.test(receiptId)) throw new Error(`invalid receipt id: ${JSON.stringify(receiptId)}`);
  return join(receiptsFolder(repo, dirName), `${receiptId}.json`);
}

export async function writeReceipt(repo: string, receipt: Receipt, dirName = DEFAULT_RECEIPTS_DIR): Promise<string> {
  const file = receiptPath(repo, receipt.receipt_id, dirName);
  await writeFileAtomic(file, JSON.stringify(receipt, null, 2) + "\n");
  return file;
}

/** Stores the fused evidence under its content hash and returns the ref. Identical evidence is stored once. */
export async function writeEvidence(repo: string, evidence: FusedEvidence[], dirName = DEFAULT_RECEIPTS_DIR): Promise<string> {
  const body = canonicalJson(evidence);
  const ref = evidenceRefOf(evidence);
  const file = join(receiptsFolder(repo, dirName), "evidence", `${ref}.json`);
  if (!existsSync(file)) await writeFileAtomic(file, body + "\n");
  return ref;
}

export function evidenceRefOf(evidence: FusedEvidence[]): string {
  return `sha256-${sha256(canonicalJson(evidence)).slice(0, 32)}`;
}

export async function readEvidence(repo: string, ref: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<FusedEvidence[]> {
  if (!/^sha256-[0-9a-f]{32}$/.test(ref)) throw new Error(`invalid evidence ref: ${ref}`);
  const raw = JSON.parse(await fs.readFile(join(receiptsFolder(repo, dirName), "evidence", `${ref}.json`), "utf8"));
  return z.array(FusedEvidenceSchema).parse(raw);
}

export type ReceiptEntry =
  | { state: "ok"; receipt_id: string; file: string; receipt: Receipt; raw: Record<string, unknown> }
  | { state: "corrupt"; receipt_id: string; file: string; error: string };

/** Reads and validates one receipt file; a broken file comes back as `corrupt` with a one-line reason. */
export async function loadReceiptFile(file: string): Promise<ReceiptEntry> {
  const receipt_id = file.replace(/^.*[\\/]/, "").replace(/\.json$/, "");
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    return { state: "corrupt", receipt_id, file, error: `unreadable: ${(err as Error).message}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { state: "corrupt", receipt_id, file, error: `not valid JSON: ${(err as Error).message}` };
  }
  const parsed = ReceiptSchema.safeParse(raw);
  if (!parsed.success) return { state: "corrupt", receipt_id, file, error: `not a valid receipt: ${formatZodError(parsed.error)}` };
  return { state: "ok", receipt_id: parsed.data.receipt_id, file, receipt: parsed.data, raw: raw as Record<string, unknown> };
}

/** Every receipt in the folder, newest first; corrupt files are listed, never thrown. */
export async function listReceipts(repo: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<ReceiptEntry[]> {
  const folder = receiptsFolder(repo, dirName);
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return [];
  }
  const files = names.filter((n) => n.endsWith(".json")).map((n) => join(folder, n));
  const entries = await Promise.all(files.map(loadReceiptFile));
  return entries.sort((a, b) => {
    const ta = a.state === "ok" ? a.receipt.created_at : "";
    const tb = b.state === "ok" ? b.receipt.created_at : "";
    return tb.localeCompare(ta) || b.receipt_id.localeCompare(a.receipt_id);
  });
}

export async function readReceipt(repo: string, receiptId: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<Receipt> {
  const file = receiptPath(repo, receiptId, dirName);
  if (!existsSync(file)) throw new Error(`unknown receipt: ${receiptId}`);
  const entry = await loadReceiptFile(file);
  if (entry.state === "corrupt") throw new Error(`receipt ${receiptId} is corrupt: ${entry.error}`);
  return entry.receipt;
}

/**
 * Writes the operator's pick back into the receipt and re-signs it. Overriding the recommendation is allowed and
 * recorded (`overrode_recommendation`), with the reason if one was given.
 */
export async function recordPick(
  repo: string,
  receiptId: string,
  pick: { option_id: string; reason?: string; at?: Date },
  key: SigningKey,
  dirName = DEFAULT_RECEIPTS_DIR,
): Promise<Receipt> {
  const file = receiptPath(repo, receiptId, dirName);
  if (!existsSync(file)) throw new Error(`unknown receipt: ${receiptId}`);
  return withFileLock(file, async () => {
    const receipt = await readReceipt(repo, receiptId, dirName);
    const option = receipt.payload.options.find((o) => o.id === pick.option_id);
    if (!option) {
      const known = receipt.payload.options.map((o) => o.id).join(", ");
      throw new Error(`unknown option "${pick.option_id}" for receipt ${receiptId} (options: ${known})`);
    }
    const reason = pick.reason?.trim() || undefined;
    const overrode = receipt.payload.recommendation.option_id !== UNDECIDABLE && receipt.payload.recommendation.option_id !== option.id;
    const { signature: _old, signing: _signing, ...rest } = receipt;
    const updated = signReceipt(
      {
        ...rest,
        operator_pick: { option_id: option.id, ...(reason ? { reason } : {}), at: (pick.at ?? new Date()).toISOString(), overrode_recommendation: overrode },
      },
      key,
    );
    ReceiptSchema.parse(updated);
    await writeFileAtomic(file, JSON.stringify(updated, null, 2) + "\n");
    return updated;
  });
}

export interface ReceiptVerification {
  receipt_id: string;
  file: string;
  signature: "valid" | "invalid" | "corrupt";
  reason?: string;
  /** Internal citations that no longer resolve (file missing, range outside the file). */
  unresolved: string[];
}

/** Checks the signature and that every internal citation still resolves to real lines in the workspace. */
export async function verifyEntry(repo: string, entry: ReceiptEntry): Promise<ReceiptVerification> {
  if (entry.state === "corrupt") {
    return { receipt_id: entry.receipt_id, file: entry.file, signature: "corrupt", reason: entry.error, unresolved: [] };
  }
  const sig = verifyReceiptSignature(entry.raw);
  const unresolved = await unresolvedCitations(repo, entry.receipt);
  return {
    receipt_id: entry.receipt_id,
    file: entry.file,
    signature: sig.ok ? "valid" : "invalid",
    ...(sig.reason ? { reason: sig.reason } : {}),
    unresolved,
  };
}

export async function verifyAll(repo: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<ReceiptVerification[]> {
  const entries = await listReceipts(repo, dirName);
  return Promise.all(entries.map((e) => verifyEntry(repo, e)));
}

const lineCountCache = new Map<string, number | null>();

async function lineCount(abs: string): Promise<number | null> {
  try {
    const text = await fs.readFile(abs, "utf8");
    return text.length === 0 ? 0 : text.replace(/\n$/, "").split("\n").length;
  } catch {
    return null;
  }
}

/** Ids of internal citations whose file is gone or whose line range runs past the file's end. */
export async function unresolvedCitations(repo: string, receipt: Receipt): Promise<string[]> {
  lineCountCache.clear();
  const failed: string[] = [];
  for (const c of receipt.payload.citations) {
    if (c.kind !== "internal" || c.resolution_failed) continue;
    if (c.precision_class === "commit" && !c.line_range) continue;
    const abs = join(repo, c.path_or_url);
    let lines = lineCountCache.get(abs);
    if (lines === undefined) {
      lines = await lineCount(abs);
      lineCountCache.set(abs, lines);
    }
    if (lines === null || (c.line_range && c.line_range.end > lines)) failed.push(c.id);
  }
  return failed;
}
