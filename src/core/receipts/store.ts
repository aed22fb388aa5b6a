// Receipts on disk: `<repo>/<receiptsDir>/<receipt_id>.json`, fused evidence content-addressed under
// `evidence/<evidence_ref>.json` (its sha256 signed into the receipt), and the turn cache under `cache/`. Every
// write is temp-file + rename, and read-modify-write (a pick) holds a lock file, so concurrent writers never leave a
// torn or mixed receipt and no pick is lost. Every read by a path stored in a receipt resolves through realpath and
// must stay inside the repository (contain.ts).
import { constants as fsConstants, promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { folderWritableInside, resolveInside } from "../contain";
import { canonicalJson, sha256 } from "../hash";
import { hasControlChars } from "../sanitize";
import {
  FusedEvidenceSchema,
  ReceiptSchema,
  UNDECIDABLE,
  formatZodError,
  type AdrExport,
  type EvidenceFile,
  type FusedEvidence,
  type PickRecord,
  type Receipt,
  type UnsignedReceipt,
} from "../schemas";
import { mapBounded, readRegularFile, withFileLock, writeFileAtomic } from "./fsutil";
import { unsafeJsonKey } from "./strictJson";
import { RESIGNABLE_FIELDS, mintedByOf, signReceipt, verifyMintedBy, verifyReceiptSignature, type SigningKey } from "./signing";
import { classifySigner, describeTrust, readAllowedSigners, type AllowedSigners, type TrustLevel } from "./trust";
import { z } from "zod";

export { LockTimeoutError, withFileLock, writeFileAtomic } from "./fsutil";

export const DEFAULT_RECEIPTS_DIR = ".deliberations";

export function receiptsFolder(repo: string, dirName = DEFAULT_RECEIPTS_DIR): string {
  return join(repo, dirName);
}

const RECEIPT_ID = /^[A-Za-z0-9_-]{6,80}$/;

export function newReceiptId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z").replace("T", "-");
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}

/** The receipts folder is unusable (a file, unwritable, or a symlink out of the repository): bad input, one line. */
export class ReceiptsDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReceiptsDirError";
  }
}

/**
 * Makes sure `<repo>/<dirName>` (and the given sub-folders) exist as writable folders inside the repository, before
 * anything is written. Throws ReceiptsDirError with one clear line otherwise.
 */
export async function prepareReceiptsDir(repo: string, dirName = DEFAULT_RECEIPTS_DIR, subdirs: string[] = []): Promise<string> {
  const abs = receiptsFolder(repo, dirName);
  const st = await fs.stat(abs).catch((err: NodeJS.ErrnoException) => err);
  if (st instanceof Error) {
    if (st.code === "ENOTDIR") throw new ReceiptsDirError(`${dirName} cannot be created: a parent of it is a file`);
    if (st.code !== "ENOENT") throw new ReceiptsDirError(`${dirName} cannot be used (${st.code ?? st.message})`);
    const lst = await fs.lstat(abs).catch(() => undefined);
    if (lst?.isSymbolicLink()) throw new ReceiptsDirError(`${dirName} is a symlink to a path that does not exist`);
  } else {
    if (!st.isDirectory()) throw new ReceiptsDirError(`${dirName} is a file, not a folder: move it away so receipts can be written`);
    if (!(await resolveInside(repo, dirName))) throw new ReceiptsDirError(`${dirName} resolves outside the repository (a symlink); receipts stay inside the repository`);
  }
  for (const sub of ["", ...subdirs]) {
    const dir = sub ? join(abs, sub) : abs;
    try {
      await fs.mkdir(dir, { recursive: true });
      await fs.access(dir, fsConstants.W_OK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const what = sub ? `${dirName}/${sub}` : dirName;
      if (code === "EACCES" || code === "EPERM" || code === "EROFS") throw new ReceiptsDirError(`${what} is not writable (${code})`);
      if (code === "ENOTDIR" || code === "EEXIST") throw new ReceiptsDirError(`${what} is a file, not a folder: move it away so receipts can be written`);
      throw new ReceiptsDirError(`${what} cannot be used (${code ?? (err as Error).message})`);
    }
    // A committed symlink ("cache -> /elsewhere") would carry every later write out of the repository.
    if (sub && !(await resolveInside(repo, join(dirName, sub)))) throw new ReceiptsDirError(`${dirName}/${sub} resolves outside the repository (a symlink); receipts stay inside the repository`);
  }
  return abs;
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

/** The evidence file a receipt references: its ref, path (relative to the receipts folder), bytes and sha256. */
export interface EvidenceFileDraft extends EvidenceFile {
  ref: string;
  body: string;
}

export function evidenceRefOf(evidence: FusedEvidence[]): string {
  return `sha256-${sha256(canonicalJson(evidence)).slice(0, 32)}`;
}

export function evidenceFileOf(evidence: FusedEvidence[]): EvidenceFileDraft {
  const body = canonicalJson(evidence) + "\n";
  const ref = evidenceRefOf(evidence);
  return { ref, path: `evidence/${ref}.json`, body, sha256: sha256(body) };
}

/**
 * Stores an evidence file (content-addressed: identical evidence is stored once). An existing file with other
 * bytes — edited, truncated, replaced by a symlink — is replaced with the right content.
 */
export async function storeEvidenceFile(repo: string, draft: EvidenceFileDraft, dirName = DEFAULT_RECEIPTS_DIR): Promise<void> {
  const file = join(receiptsFolder(repo, dirName), draft.path);
  if (!(await folderWritableInside(repo, dirname(join(dirName, draft.path))))) throw new ReceiptsDirError(`${dirName}/${dirname(draft.path)} resolves outside the repository (a symlink); receipts stay inside the repository`);
  const lst = await fs.lstat(file).catch(() => undefined);
  if (lst?.isFile()) {
    const current = await readRegularFile(file, { maxBytes: MAX_EVIDENCE_BYTES }).catch(() => undefined);
    if (current && sha256(current) === draft.sha256) return;
  }
  await writeFileAtomic(file, draft.body);
}

/** Stores the fused evidence under its content hash and returns the ref. */
export async function writeEvidence(repo: string, evidence: FusedEvidence[], dirName = DEFAULT_RECEIPTS_DIR): Promise<string> {
  const draft = evidenceFileOf(evidence);
  await storeEvidenceFile(repo, draft, dirName);
  return draft.ref;
}

/** Reads a file under the receipts folder by its stored relative path, only when it resolves inside the repository. */
async function readContained(repo: string, dirName: string, rel: string): Promise<Buffer> {
  const real = await resolveInside(repo, join(dirName, rel));
  if (!real) {
    const exists = await fs.lstat(join(receiptsFolder(repo, dirName), rel)).then(() => true, () => false);
    throw Object.assign(new Error(exists ? `${rel} resolves outside the repository` : `${rel} is missing`), { code: exists ? "EOUTSIDE" : "ENOENT" });
  }
  return readRegularFile(real, { maxBytes: MAX_EVIDENCE_BYTES, followSymlinks: true });
}

export async function readEvidence(repo: string, ref: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<FusedEvidence[]> {
  if (!/^sha256-[0-9a-f]{32}$/.test(ref)) throw new Error(`invalid evidence ref: ${ref}`);
  const raw = JSON.parse((await readContained(repo, dirName, `evidence/${ref}.json`)).toString("utf8"));
  return z.array(FusedEvidenceSchema).parse(raw);
}

export type ReceiptEntry =
  | { state: "ok"; receipt_id: string; file: string; receipt: Receipt; raw: Record<string, unknown> }
  | { state: "corrupt"; receipt_id: string; file: string; error: string };

/** Per receipt file. Real receipts are 7–100 KB; a larger one is reported unreadable, never parsed. */
export const MAX_RECEIPT_BYTES = 2 * 1024 * 1024;
/** Evidence files and cited files (hashed or line-counted, never kept). */
const MAX_EVIDENCE_BYTES = 16 * 1024 * 1024;
/** All receipt files of one listing together (~3,000 receipts of 20 KB): what is kept in memory is bounded. */
export const LISTING_BUDGET_BYTES = 64 * 1024 * 1024;
/** Receipt files read and parsed at once. */
const READ_CONCURRENCY = 8;

/** Validates the bytes of one receipt file; never throws. */
export function parseReceiptText(text: string, file: string): ReceiptEntry {
  const receipt_id = file.replace(/^.*[\\/]/, "").replace(/\.json$/, "");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { state: "corrupt", receipt_id, file, error: `not valid JSON: ${(err as Error).message.split("\n")[0].slice(0, 200)}` };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { state: "corrupt", receipt_id, file, error: "not a valid receipt: not a JSON object" };
  // The signature covers the parsed value: keys that parse away (a duplicate, `__proto__`) would escape it.
  const unsafe = unsafeJsonKey(text);
  if (unsafe) return { state: "corrupt", receipt_id, file, error: `not a valid receipt: ${unsafe}` };
  let parsed: ReturnType<typeof ReceiptSchema.safeParse>;
  try {
    parsed = ReceiptSchema.safeParse(raw);
  } catch (err) {
    return { state: "corrupt", receipt_id, file, error: `not a valid receipt: ${(err as Error).message.split("\n")[0].slice(0, 200)}` };
  }
  if (!parsed.success) return { state: "corrupt", receipt_id, file, error: `not a valid receipt: ${formatZodError(parsed.error)}` };
  return { state: "ok", receipt_id: parsed.data.receipt_id, file, receipt: parsed.data, raw: raw as Record<string, unknown> };
}

type CorruptEntry = Extract<ReceiptEntry, { state: "corrupt" }>;

function unreadable(file: string, why: string): CorruptEntry {
  return { state: "corrupt", receipt_id: fileStem(file), file, error: `unreadable: ${why}` };
}

/** The size of a receipt file, or why it is not read (not a regular file, over MAX_RECEIPT_BYTES). */
async function receiptFileSize(file: string): Promise<number | CorruptEntry> {
  try {
    const st = await fs.stat(file);
    if (!st.isFile()) return unreadable(file, "not a regular file");
    if (st.size > MAX_RECEIPT_BYTES) return unreadable(file, `${st.size} bytes is over the ${MAX_RECEIPT_BYTES}-byte limit for a receipt`);
    return st.size;
  } catch (err) {
    return unreadable(file, (err as Error).message.split("\n")[0]);
  }
}

async function readReceiptFile(file: string): Promise<ReceiptEntry> {
  let text: string;
  try {
    text = (await readRegularFile(file, { maxBytes: MAX_RECEIPT_BYTES, followSymlinks: true })).toString("utf8");
  } catch (err) {
    return unreadable(file, (err as Error).message.split("\n")[0]);
  }
  return parseReceiptText(text, file);
}

/** Reads and validates one receipt file; a broken file comes back as `corrupt` with a one-line reason. */
export async function loadReceiptFile(file: string): Promise<ReceiptEntry> {
  const size = await receiptFileSize(file);
  return typeof size === "number" ? readReceiptFile(file) : size;
}

/** The receipt id a file name stands for (`<id>.json`). */
function fileStem(file: string): string {
  return file.replace(/^.*[\\/]/, "").replace(/\.json$/, "");
}

/**
 * Why a readable receipt file must not be used: its name is not `<receipt_id>.json` for the id signed inside it.
 * Receipts are identified by that signed id, so a copy under another name (or a renamed file) would otherwise count
 * twice — in learning, in the sidebar's counts, in `verify`'s tally.
 */
export function fileNameMismatch(entry: ReceiptEntry): string | undefined {
  if (entry.state !== "ok") return undefined;
  const stem = fileStem(entry.file);
  return stem === entry.receipt.receipt_id ? undefined : `the file name ${stem}.json does not match the receipt_id it holds (${entry.receipt.receipt_id})`;
}

/** A receipt file that is not used, and why: a copy of another receipt, or a name that does not match its id. */
export interface IgnoredReceiptFile {
  /** The file's name without `.json` (how to find it). */
  name: string;
  file: string;
  /** The signed receipt_id inside it. */
  holds: string;
  reason: "duplicate" | "name-mismatch";
  detail: string;
  entry: Extract<ReceiptEntry, { state: "ok" }>;
}

/** Splits listed entries into the ones to use and the misnamed copies to ignore (one receipt counts once). */
export function partitionByReceiptId(all: ReceiptEntry[]): { entries: ReceiptEntry[]; ignored: IgnoredReceiptFile[] } {
  const holders = new Map<string, number>();
  for (const e of all) if (e.state === "ok") holders.set(e.receipt.receipt_id, (holders.get(e.receipt.receipt_id) ?? 0) + 1);
  const entries: ReceiptEntry[] = [];
  const ignored: IgnoredReceiptFile[] = [];
  for (const e of all) {
    const mismatch = fileNameMismatch(e);
    if (!mismatch || e.state !== "ok") {
      entries.push(e);
      continue;
    }
    const duplicate = (holders.get(e.receipt.receipt_id) ?? 0) > 1;
    ignored.push({
      name: fileStem(e.file),
      file: e.file,
      holds: e.receipt.receipt_id,
      reason: duplicate ? "duplicate" : "name-mismatch",
      detail: `ignored: ${mismatch}${duplicate ? `; another file holds the same receipt, which counts once` : ""}`,
      entry: e,
    });
  }
  return { entries, ignored };
}

/** Every receipt in the folder, newest first; corrupt files are listed, never thrown; misnamed copies are left out. */
export async function listReceipts(repo: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<ReceiptEntry[]> {
  return (await listReceiptFiles(repo, dirName)).entries;
}

/**
 * Every receipt file in the folder: the ones to use (newest first) and the misnamed copies ignored, with why. At
 * most READ_CONCURRENCY files are read at once and `budgetBytes` (default LISTING_BUDGET_BYTES) in all; a file over
 * the per-file cap or past the budget is listed as unreadable with why, like any file that cannot be read.
 */
export async function listReceiptFiles(repo: string, dirName = DEFAULT_RECEIPTS_DIR, opts: { budgetBytes?: number } = {}): Promise<{ entries: ReceiptEntry[]; ignored: IgnoredReceiptFile[] }> {
  const none = { entries: [], ignored: [] };
  const folder = receiptsFolder(repo, dirName);
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return none;
  }
  if (!(await resolveInside(repo, dirName))) return none;
  // Newest names first (an id starts with its UTC time), so a budget that runs out leaves out the oldest files.
  const files = names.filter((n) => n.endsWith(".json")).sort().reverse().map((n) => join(folder, n));
  const sized = await mapBounded(files, READ_CONCURRENCY, async (file): Promise<number | CorruptEntry> => {
    if (!(await resolveInside(repo, join(dirName, file.slice(folder.length + 1))))) return unreadable(file, "resolves outside the repository (symlink)");
    return receiptFileSize(file);
  });
  // Decided in name order, before any read, so which files fit does not depend on timing.
  const budget = opts.budgetBytes ?? LISTING_BUDGET_BYTES;
  let left = budget;
  const plan = sized.map((size, i): CorruptEntry | string => {
    if (typeof size !== "number") return size;
    if (size > left) return unreadable(files[i], `over one listing's ${budget}-byte budget, used up by the newer receipt files (this one is ${size} bytes); archive old receipts`);
    left -= size;
    return files[i];
  });
  const entries = await mapBounded(plan, READ_CONCURRENCY, async (p) => (typeof p === "string" ? readReceiptFile(p) : p));
  const sorted = entries.sort((a, b) => {
    const ta = a.state === "ok" ? a.receipt.created_at : "";
    const tb = b.state === "ok" ? b.receipt.created_at : "";
    return tb.localeCompare(ta) || b.receipt_id.localeCompare(a.receipt_id) || a.file.localeCompare(b.file);
  });
  return partitionByReceiptId(sorted);
}

/** The receipt file for an id, checked to exist inside the repository. */
async function containedReceiptFile(repo: string, receiptId: string, dirName: string): Promise<string> {
  const file = receiptPath(repo, receiptId, dirName);
  const exists = await fs.lstat(file).then(() => true, () => false);
  if (!exists) throw new ReceiptInputError(`unknown receipt: ${receiptId}`);
  if (!(await resolveInside(repo, join(dirName, `${receiptId}.json`)))) throw new ReceiptInputError(`receipt ${receiptId} resolves outside the repository`);
  return file;
}

/** Loads `<id>.json`; a file holding another receipt_id comes back as corrupt (it is a copy or a rename). */
async function loadNamedReceipt(file: string, receiptId: string): Promise<ReceiptEntry> {
  const entry = await loadReceiptFile(file);
  const mismatch = fileNameMismatch(entry);
  return mismatch ? { state: "corrupt", receipt_id: receiptId, file, error: `${mismatch}; ignored` } : entry;
}

/** The receipt file for an id, read and validated (unknown id: ReceiptInputError; a broken file: `corrupt`). */
export async function loadReceiptEntry(repo: string, receiptId: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<ReceiptEntry> {
  return loadNamedReceipt(await containedReceiptFile(repo, receiptId, dirName), receiptId);
}

export async function readReceipt(repo: string, receiptId: string, dirName = DEFAULT_RECEIPTS_DIR): Promise<Receipt> {
  const entry = await loadReceiptEntry(repo, receiptId, dirName);
  if (entry.state === "corrupt") throw new Error(`receipt ${receiptId} is corrupt: ${entry.error}`);
  return entry.receipt;
}

// ---------------------------------------------------------------------------------------------------------
// Picks.

/** Longest pick reason accepted (characters). */
export const MAX_PICK_REASON = 2000;

/** Bad input to a receipt operation (unknown id or option, over-long reason): one line, nothing written. */
export class ReceiptInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReceiptInputError";
  }
}

/** The receipt failed verification (signature, signer or evidence): it is not re-signed, nothing is written. */
export class PickRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PickRefusedError";
  }
}

export interface PickOptions {
  /** The repository's allowed signers; read from `<dirName>/allowed_signers` when not given. */
  signers?: AllowedSigners;
  /** Who is picking, when your key has no name in allowed_signers (e.g. the OS user name). Default "you". */
  who?: string;
  /** Who made the pick: "operator" (the default: the editor, the CLI) or "agent" (the MCP server's record_pick). */
  pickedBy?: PickRecord["picked_by"];
  lockTimeoutMs?: number;
}

/** Checks a pick reason: at most MAX_PICK_REASON characters, no control characters. Returns it trimmed (or undefined). */
export function checkPickReason(reason: string | undefined): string | undefined {
  const r = reason?.trim();
  if (!r) return undefined;
  if (r.length > MAX_PICK_REASON) throw new ReceiptInputError(`the reason is ${r.length} characters; the limit is ${MAX_PICK_REASON}`);
  if (hasControlChars(r)) throw new ReceiptInputError("the reason contains control characters");
  return r;
}

/**
 * Records the operator's pick and re-signs the receipt — only after the receipt as it is on disk passed
 * verification: a canonical, valid signature by a trusted key (your own or an allowed signer) and, for schema-2
 * receipts, intact evidence files. A receipt that fails is refused (PickRefusedError) and nothing is written, so
 * a tampered receipt is never laundered with your signature. Every pick is appended to `picks` (who, when, option,
 * reason, picked_by "operator" or, through MCP, "agent"); `operator_pick` is the latest. Concurrent picks are serialised by a lock file, so
 * each one lands in the history; a pick that cannot get the lock in time fails loudly (LockTimeoutError).
 */
export async function recordPick(
  repo: string,
  receiptId: string,
  pick: { option_id: string; reason?: string; at?: Date },
  key: SigningKey,
  dirName = DEFAULT_RECEIPTS_DIR,
  opts: PickOptions = {},
): Promise<Receipt> {
  const reason = checkPickReason(pick.reason);
  return resignVerified(repo, receiptId, key, dirName, opts, (receipt, signers) => {
    const option = receipt.payload.options.find((o) => o.id === pick.option_id);
    if (!option) {
      const known = receipt.payload.options.map((o) => o.id).join(", ");
      throw new ReceiptInputError(`unknown option "${pick.option_id}" for receipt ${receiptId} (options: ${known})`);
    }
    const overrode = receipt.payload.recommendation.option_id !== UNDECIDABLE && receipt.payload.recommendation.option_id !== option.id;
    const me = classifySigner(key.publicKeyPem, key.publicKeyPem, signers);
    const who = me.name && me.name !== "you" ? me.name : opts.who?.trim() || "you";
    const at = (pick.at ?? new Date()).toISOString();
    const history: PickRecord[] = receipt.picks
      ? [...receipt.picks]
      : receipt.operator_pick
        ? [{ ...receipt.operator_pick, picked_by: "operator", who: "unknown (legacy receipt)", key_id: receipt.signing.key_id }]
        : [];
    const current = { option_id: option.id, ...(reason ? { reason } : {}), at, overrode_recommendation: overrode };
    history.push({ ...current, picked_by: opts.pickedBy ?? "operator", who: who.slice(0, 200), key_id: key.keyId });
    return { operator_pick: current, picks: history };
  });
}

/**
 * Records that the receipt was exported as an ADR (`adr_exports`) and re-signs it, under the same lock and after
 * the same verification as a pick: a receipt that fails verification is refused and nothing is written.
 */
export async function recordAdrExport(
  repo: string,
  receiptId: string,
  exported: Omit<AdrExport, "at"> & { at?: Date },
  key: SigningKey,
  dirName = DEFAULT_RECEIPTS_DIR,
  opts: Pick<PickOptions, "signers" | "lockTimeoutMs"> = {},
): Promise<Receipt> {
  return resignVerified(repo, receiptId, key, dirName, opts, (receipt) => {
    const { at, ...rest } = exported;
    const record: AdrExport = { ...rest, at: (at ?? new Date()).toISOString() };
    return { adr_exports: [...(receipt.adr_exports ?? []), record] };
  });
}

/**
 * The read-verify-change-re-sign cycle behind every change to a stored receipt, under the receipt's lock file. The
 * receipt as it is on disk must verify (signature, trusted signer, intact evidence) before `change` runs, so a
 * tampered receipt is never laundered with your signature; `change` returns the fields to replace.
 */
async function resignVerified(
  repo: string,
  receiptId: string,
  key: SigningKey,
  dirName: string,
  opts: Pick<PickOptions, "signers" | "lockTimeoutMs">,
  change: (receipt: Receipt, signers: AllowedSigners) => Partial<UnsignedReceipt>,
): Promise<Receipt> {
  const file = await containedReceiptFile(repo, receiptId, dirName);
  return withFileLock(
    file,
    async () => {
      const entry = await loadNamedReceipt(file, receiptId);
      if (entry.state === "corrupt") throw new PickRefusedError(`receipt ${receiptId} is corrupt (${entry.error}); nothing was written`);
      const signers = opts.signers ?? (await readAllowedSigners(repo, dirName));
      const check = await verifyEntry(repo, entry, { ownPublicKeyPem: key.publicKeyPem, signers, dirName, citations: false });
      const refusal = resignRefusal(check, receiptId, dirName);
      if (refusal) throw new PickRefusedError(`${refusal}; refusing to re-sign it, nothing was written`);
      const changes = change(entry.receipt, signers);
      const stray = Object.keys(changes).filter((k) => !(RESIGNABLE_FIELDS as readonly string[]).includes(k));
      // Only the pick fields may change, or the minter's signature could no longer be rebuilt and checked.
      if (stray.length) throw new Error(`a re-sign may change only ${RESIGNABLE_FIELDS.join(", ")} (not ${stray.join(", ")})`);
      // From the bytes as read (what the checked signature covers), keeping the minter's signing block.
      const { signature: _old, signing: _signing, ...unsigned } = entry.raw;
      const updated = signReceipt({ ...unsigned, ...changes, minted_by: mintedByOf(entry.raw) } as Omit<UnsignedReceipt, "signing">, key);
      const parsed = ReceiptSchema.parse(updated);
      await writeFileAtomic(file, JSON.stringify(updated, null, 2) + "\n");
      return parsed;
    },
    opts.lockTimeoutMs,
  );
}

/** Why a receipt may not be re-signed (invalid signature, untrusted signer, changed evidence), or undefined. */
function resignRefusal(check: ReceiptVerification, receiptId: string, dirName: string): string | undefined {
  if (check.signature !== "valid") return `receipt ${receiptId} failed verification (${check.reason ?? "invalid signature"})`;
  if (check.trust === "untrusted") {
    return `receipt ${receiptId} is signed by an untrusted key ${check.key_id ?? ""} (not yours and not in ${dirName}/allowed_signers)`;
  }
  if (check.evidence === "changed" || check.evidence === "missing") return `receipt ${receiptId}: ${check.evidence_problems.join("; ")}`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Verification.

export interface VerifyOptions {
  /** Your own public key (PEM): receipts it signed are trusted. */
  ownPublicKeyPem?: string;
  /** The repository's allowed signers; read from `<dirName>/allowed_signers` when not given. */
  signers?: AllowedSigners;
  dirName?: string;
  /** Count untrusted signers and legacy receipts as passing (they are still reported as such). */
  allowUntrusted?: boolean;
  /** Default true: also re-check that internal citations still resolve (reported, never a failure). */
  citations?: boolean;
}

export interface ReceiptVerification {
  receipt_id: string;
  file: string;
  /** Whether the bytes match the signature (canonical Ed25519 over the canonical JSON). */
  signature: "valid" | "invalid" | "corrupt";
  reason?: string;
  /** Who signed and whether that key is trusted (absent for a corrupt file). */
  trust?: TrustLevel;
  signer?: string;
  key_id?: string;
  /** Who minted the receipt before it was re-signed (a pick, an export), and whether that signature still checks. */
  minted_by?: MintedByCheck;
  /** A misnamed copy (its name is not `<receipt_id>.json`): not used anywhere; `receipt_id` is then the file's name. */
  ignored?: IgnoredReceiptFile["reason"];
  /** Schema-1 receipt: its evidence is not covered by the signature. */
  legacy?: boolean;
  /** intact: every referenced evidence file matches its signed hash; not-covered: a legacy receipt. */
  evidence: "intact" | "changed" | "missing" | "not-covered" | "unchecked";
  evidence_problems: string[];
  /** Internal citations that no longer resolve (file missing, outside the repository, range past the end). */
  unresolved: string[];
  /** The overall verdict: valid signature, trusted signer (or allowUntrusted), evidence intact (or allowUntrusted for legacy). */
  ok: boolean;
  /** One line for humans. */
  summary: string;
}

export interface MintedByCheck {
  signature: "valid" | "invalid";
  reason?: string;
  trust: TrustLevel;
  signer?: string;
  key_id?: string;
}

/** "minted by alice (allowed signer)", "minted by you", "minted by an untrusted key …", or why it does not check. */
export function describeMinter(m: MintedByCheck): string {
  if (m.signature !== "valid") return `minted_by does not verify (${m.reason ?? "signature invalid"})`;
  if (m.trust === "own-key") return `minted by ${m.signer && m.signer !== "you" ? `${m.signer} (you)` : "you"}`;
  if (m.trust === "allowed-signer") return `minted by ${m.signer} (allowed signer)`;
  return `minted by an untrusted key ${m.key_id ?? "(no usable key)"}`;
}

async function checkEvidence(repo: string, receipt: Receipt, dirName: string): Promise<{ state: ReceiptVerification["evidence"]; problems: string[] }> {
  if (receipt.schema_version === 1 || !receipt.evidence_files) return { state: "not-covered", problems: ["legacy receipt: evidence is not covered by the signature"] };
  const problems: string[] = [];
  let missing = false;
  let changed = false;
  const expected = `evidence/${receipt.evidence_ref}.json`;
  if (!receipt.evidence_files.some((f) => f.path === expected)) {
    changed = true;
    problems.push(`the evidence file ${expected} has no signed hash`);
  }
  for (const f of receipt.evidence_files) {
    let bytes: Buffer;
    try {
      bytes = await readContained(repo, dirName, f.path);
    } catch (err) {
      const outside = (err as NodeJS.ErrnoException).code === "EOUTSIDE";
      if (outside) changed = true;
      else missing = true;
      problems.push(outside ? `evidence file ${f.path} resolves outside the repository` : `evidence file ${f.path} is missing`);
      continue;
    }
    if (sha256(bytes) !== f.sha256) {
      changed = true;
      problems.push(`evidence file ${f.path} changed (sha256 ${sha256(bytes).slice(0, 12)}…, signed ${f.sha256.slice(0, 12)}…)`);
    }
  }
  return { state: changed ? "changed" : missing ? "missing" : "intact", problems };
}

/**
 * Verifies one receipt: the signature (canonical, over the bytes as read), who signed it and whether that key is
 * trusted (your own key or an allowed signer), the content hash of every evidence file it references, and —
 * reported only — whether its internal citations still resolve inside the repository.
 */
export async function verifyEntry(repo: string, entry: ReceiptEntry, opts: VerifyOptions = {}): Promise<ReceiptVerification> {
  if (entry.state === "corrupt") {
    return { receipt_id: entry.receipt_id, file: entry.file, signature: "corrupt", reason: entry.error, evidence: "unchecked", evidence_problems: [], unresolved: [], ok: false, summary: entry.error };
  }
  const dirName = opts.dirName ?? DEFAULT_RECEIPTS_DIR;
  const sig = verifyReceiptSignature(entry.raw);
  const signers = opts.signers ?? (await readAllowedSigners(repo, dirName));
  const trust = classifySigner(entry.receipt.signing.public_key, opts.ownPublicKeyPem, signers);
  const legacy = entry.receipt.schema_version === 1 || !entry.receipt.evidence_files;
  const evidence = sig.ok ? await checkEvidence(repo, entry.receipt, dirName) : { state: "unchecked" as const, problems: [] };
  const unresolved = opts.citations === false ? [] : await unresolvedCitations(repo, entry.receipt);
  let minted: MintedByCheck | undefined;
  if (entry.receipt.minted_by) {
    const m = verifyMintedBy(entry.raw);
    const t = classifySigner(entry.receipt.minted_by.public_key, opts.ownPublicKeyPem, signers);
    minted = { signature: m.ok ? "valid" : "invalid", ...(m.reason ? { reason: m.reason } : {}), trust: t.trust, ...(t.name ? { signer: t.name } : {}), ...(t.keyId ? { key_id: t.keyId } : {}) };
  }
  const trustedEnough = trust.trust !== "untrusted" || !!opts.allowUntrusted;
  const evidenceOk = evidence.state === "intact" || (evidence.state === "not-covered" && !!opts.allowUntrusted);
  const ok = sig.ok && trustedEnough && evidenceOk;
  let summary: string;
  if (!sig.ok) summary = sig.reason ?? "signature invalid";
  else {
    const parts = [describeTrust(trust)];
    // The same key minted and re-signed it: nothing more to say, unless the minting signature no longer checks.
    const sameKey = entry.receipt.minted_by?.public_key === entry.receipt.signing.public_key;
    if (minted && !(sameKey && minted.signature === "valid")) parts.push(describeMinter(minted));
    if (trust.trust === "untrusted" && opts.allowUntrusted) parts.push("accepted with --allow-untrusted");
    if (legacy) parts.push(`legacy receipt (schema ${entry.receipt.schema_version}): evidence not covered by the signature${opts.allowUntrusted ? "" : "; use --allow-untrusted to accept"}`);
    else if (evidence.state === "intact") parts.push("evidence intact");
    else parts.push(evidence.problems.join("; "));
    summary = parts.join("; ");
  }
  return {
    receipt_id: entry.receipt_id,
    file: entry.file,
    signature: sig.ok ? "valid" : "invalid",
    ...(sig.reason ? { reason: sig.reason } : {}),
    trust: trust.trust,
    ...(trust.name ? { signer: trust.name } : {}),
    ...(trust.keyId ? { key_id: trust.keyId } : {}),
    ...(minted ? { minted_by: minted } : {}),
    ...(legacy ? { legacy: true } : {}),
    evidence: evidence.state,
    evidence_problems: evidence.problems,
    unresolved,
    ok,
    summary,
  };
}

/**
 * Verifies every receipt in the folder. A misnamed copy is reported as ignored (never ok, so `verify` fails on it),
 * named by its file, so a receipt copied forty times is one valid receipt and forty ignored files.
 */
export async function verifyAll(repo: string, dirName = DEFAULT_RECEIPTS_DIR, opts: Omit<VerifyOptions, "dirName" | "signers"> = {}): Promise<ReceiptVerification[]> {
  const [{ entries, ignored }, signers] = await Promise.all([listReceiptFiles(repo, dirName), readAllowedSigners(repo, dirName)]);
  const checked = await mapBounded(entries, READ_CONCURRENCY, (e) => verifyEntry(repo, e, { ...opts, dirName, signers }));
  const skipped = ignored.map((i): ReceiptVerification => ({
    receipt_id: i.name,
    file: i.file,
    signature: verifyReceiptSignature(i.entry.raw).ok ? "valid" : "invalid",
    ignored: i.reason,
    evidence: "unchecked",
    evidence_problems: [],
    unresolved: [],
    ok: false,
    summary: i.detail,
  }));
  return [...checked, ...skipped];
}

/**
 * A stored receipt the turn cache may hand back: only when its signature is valid, its signer trusted and its
 * evidence intact. Anything else is re-mined (and the planted or tampered file is left for `verify` to report).
 */
export async function loadTrustedReceipt(
  repo: string,
  receiptId: string,
  ownPublicKeyPem: string,
  dirName = DEFAULT_RECEIPTS_DIR,
): Promise<{ receipt: Receipt; file: string } | undefined> {
  let file: string;
  try {
    file = await containedReceiptFile(repo, receiptId, dirName);
  } catch {
    return undefined;
  }
  const entry = await loadNamedReceipt(file, receiptId);
  if (entry.state !== "ok") return undefined;
  const v = await verifyEntry(repo, entry, { ownPublicKeyPem, dirName, citations: false });
  return v.ok ? { receipt: entry.receipt, file } : undefined;
}

async function lineCount(abs: string): Promise<number | null> {
  try {
    const text = (await readRegularFile(abs, { maxBytes: MAX_EVIDENCE_BYTES, followSymlinks: true })).toString("utf8");
    return text.length === 0 ? 0 : text.replace(/\n$/, "").split("\n").length;
  } catch {
    return null;
  }
}

/**
 * Ids of internal citations whose file is gone, resolves outside the repository (through a symlink, `..` or an
 * absolute path), or whose line range runs past the file's end.
 */
export async function unresolvedCitations(repo: string, receipt: Receipt): Promise<string[]> {
  const counts = new Map<string, Promise<number | null>>();
  const failed: string[] = [];
  for (const c of receipt.payload.citations) {
    if (c.kind !== "internal" || c.resolution_failed) continue;
    if (c.precision_class === "commit" && !c.line_range) continue;
    // A decision source's record is not in the repository; sources/freshness.ts re-reads it from the source.
    if (c.decision_source) continue;
    let lines = counts.get(c.path_or_url);
    if (!lines) {
      lines = resolveInside(repo, c.path_or_url).then((real) => (real ? lineCount(real) : null));
      counts.set(c.path_or_url, lines);
    }
    const n = await lines;
    if (n === null || (c.line_range && c.line_range.end > n)) failed.push(c.id);
  }
  return failed;
}
