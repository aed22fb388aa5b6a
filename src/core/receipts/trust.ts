// Who may sign receipts, modelled on git's SSH `allowed_signers`. A valid signature only proves the bytes were not
// changed after signing with the key the receipt itself carries; anyone can make a new key and re-sign. A receipt
// is TRUSTED only when that key is your own signing key, or is listed in the repository's
// `<receiptsDir>/allowed_signers` file (one signer per line: `NAME ed25519 BASE64-SPKI`, `#` comments), which is
// committed and reviewed like CODEOWNERS. Keys are compared by their full public key bytes, never by key id.
import { createPublicKey, type KeyObject } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { resolveInside } from "../contain";
import { terminalSafeLine } from "../sanitize";
import { readRegularFile, withFileLock, writeFileAtomic } from "./fsutil";
import { keyIdOf } from "./signing";

export const ALLOWED_SIGNERS_FILE = "allowed_signers";
/** Names are one token: letters, digits and `._@+-`, like an e-mail address or a handle. */
export const SIGNER_NAME = /^[A-Za-z0-9._@+-]{1,100}$/;
const MAX_FILE_BYTES = 256 * 1024;

export interface AllowedSigner {
  name: string;
  /** base64 of the DER SubjectPublicKeyInfo (what `keys show` prints). */
  key: string;
  keyId: string;
  /** 1-based line in the file. */
  line: number;
}

export interface AllowedSigners {
  signers: AllowedSigner[];
  /** Lines that could not be used, with why (they never grant trust). */
  errors: { line: number; reason: string }[];
  /** Why the file itself could not be read (missing is not an error: no signers). */
  unreadable?: string;
}

export type TrustLevel = "own-key" | "allowed-signer" | "untrusted";

export interface SignerTrust {
  trust: TrustLevel;
  /** The allowed_signers name, "you" for your own key, or undefined for an unknown key. */
  name?: string;
  keyId?: string;
}

function spkiDer(key: KeyObject): Buffer {
  return key.export({ type: "spki", format: "der" }) as Buffer;
}

/** The one-line form of a public key: base64 of its DER SubjectPublicKeyInfo. Throws unless it is Ed25519. */
export function publicKeyToLine(publicKeyPem: string): string {
  const key = createPublicKey(publicKeyPem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error("not an Ed25519 key");
  return spkiDer(key).toString("base64");
}

/** PEM of a one-line key (base64 DER SPKI), or undefined when it is not a canonical Ed25519 public key. */
export function lineToPublicKeyPem(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length > 200) return undefined;
  const der = Buffer.from(b64, "base64");
  if (der.toString("base64") !== b64) return undefined;
  try {
    const key = createPublicKey({ key: der, format: "der", type: "spki" });
    if (key.asymmetricKeyType !== "ed25519") return undefined;
    return key.export({ type: "spki", format: "pem" }).toString();
  } catch {
    return undefined;
  }
}

/** `NAME ed25519 BASE64`: the allowed_signers line for a key. */
export function signerLine(name: string, publicKeyPem: string): string {
  return `${name} ed25519 ${publicKeyToLine(publicKeyPem)}`;
}

/**
 * Parses `NAME ed25519 BASE64` (the keyword may be omitted: `NAME BASE64`). Returns the signer or why not.
 */
export function parseSignerSpec(name: string, keySpec: string): { ok: true; name: string; key: string; keyId: string } | { ok: false; reason: string } {
  if (!SIGNER_NAME.test(name)) return { ok: false, reason: `signer name ${JSON.stringify(terminalSafeLine(name).slice(0, 60))} must be 1-100 letters, digits or ._@+-` };
  const parts = keySpec.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 2 && parts[0].toLowerCase() === "ed25519") parts.shift();
  if (parts.length !== 1) return { ok: false, reason: "expected NAME ed25519 BASE64-PUBLIC-KEY (what `deliberate keys show` prints)" };
  const pem = lineToPublicKeyPem(parts[0]);
  if (!pem) return { ok: false, reason: "the public key is not a base64 Ed25519 public key (what `deliberate keys show` prints)" };
  return { ok: true, name, key: parts[0], keyId: keyIdOf(pem) };
}

export function parseAllowedSigners(text: string): AllowedSigners {
  const signers: AllowedSigner[] = [];
  const errors: AllowedSigners["errors"] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const [name, ...rest] = line.split(/\s+/);
    const parsed = parseSignerSpec(name, rest.join(" "));
    if (parsed.ok) signers.push({ name: parsed.name, key: parsed.key, keyId: parsed.keyId, line: i + 1 });
    else errors.push({ line: i + 1, reason: parsed.reason });
  });
  return { signers, errors };
}

export function allowedSignersPath(repo: string, dirName: string): string {
  return join(repo, dirName, ALLOWED_SIGNERS_FILE);
}

/**
 * The repository's allowed signers. The file is read only when it resolves inside the repository (a symlink to
 * somewhere else grants nothing). A missing file means no signers besides your own key.
 */
export async function readAllowedSigners(repo: string, dirName: string): Promise<AllowedSigners> {
  const rel = join(dirName, ALLOWED_SIGNERS_FILE);
  const real = await resolveInside(repo, rel);
  if (!real) {
    const exists = await fs.lstat(join(repo, rel)).then(() => true, () => false);
    return exists ? { signers: [], errors: [], unreadable: `${rel} resolves outside the repository; ignored` } : { signers: [], errors: [] };
  }
  try {
    const st = await fs.stat(real);
    if (!st.isFile()) return { signers: [], errors: [], unreadable: `${rel} is not a file` };
    if (st.size > MAX_FILE_BYTES) return { signers: [], errors: [], unreadable: `${rel} is over ${MAX_FILE_BYTES} bytes` };
    return parseAllowedSigners((await readRegularFile(real, { maxBytes: MAX_FILE_BYTES, followSymlinks: true })).toString("utf8"));
  } catch (err) {
    return { signers: [], errors: [], unreadable: `${rel}: ${(err as Error).message.split("\n")[0]}` };
  }
}

function derOfPem(pem: string): Buffer | undefined {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === "ed25519" ? spkiDer(key) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who signed, and whether to trust it: your own key first, then the allowed signers (full key bytes compared).
 * `receiptPublicKeyPem` is the key the receipt carries; check the signature itself with verifyReceiptSignature.
 */
export function classifySigner(receiptPublicKeyPem: unknown, ownPublicKeyPem: string | undefined, signers: AllowedSigners): SignerTrust {
  if (typeof receiptPublicKeyPem !== "string") return { trust: "untrusted" };
  const der = derOfPem(receiptPublicKeyPem);
  if (!der) return { trust: "untrusted" };
  const keyId = keyIdOf(receiptPublicKeyPem);
  const listed = signers.signers.find((s) => Buffer.from(s.key, "base64").equals(der));
  if (ownPublicKeyPem) {
    const own = derOfPem(ownPublicKeyPem);
    if (own && own.equals(der)) return { trust: "own-key", name: listed?.name ?? "you", keyId };
  }
  if (listed) return { trust: "allowed-signer", name: listed.name, keyId };
  return { trust: "untrusted", keyId };
}

/** One line for humans: "signed by alice (allowed signer)", "signed by you (your own key)", "untrusted signer …". */
export function describeTrust(t: SignerTrust): string {
  if (t.trust === "own-key") return `signed by ${t.name === "you" ? "you" : `${t.name} (you)`} (your own key)`;
  if (t.trust === "allowed-signer") return `signed by ${t.name} (allowed signer)`;
  return `untrusted signer ${t.keyId ?? "(no usable key)"} (not your key and not in allowed_signers)`;
}

/**
 * Adds `NAME ed25519 KEY` to the repository's allowed_signers (created with a header comment when missing), under
 * the file's lock. A key already listed is reported, not duplicated. Throws a one-line Error on bad input.
 */
export async function addAllowedSigner(repo: string, dirName: string, name: string, keySpec: string): Promise<{ added: boolean; signer: AllowedSigner; file: string }> {
  const parsed = parseSignerSpec(name, keySpec);
  if (!parsed.ok) throw new Error(parsed.reason);
  const file = allowedSignersPath(repo, dirName);
  const folder = await resolveInside(repo, dirName);
  const folderExists = await fs.lstat(join(repo, dirName)).then(() => true, () => false);
  if (folderExists && !folder) throw new Error(`${dirName} resolves outside the repository`);
  await fs.mkdir(join(repo, dirName), { recursive: true });
  return withFileLock(file, async () => {
    const fileExists = await fs.lstat(file).then(() => true, () => false);
    if (fileExists && !(await resolveInside(repo, join(dirName, ALLOWED_SIGNERS_FILE)))) throw new Error(`${join(dirName, ALLOWED_SIGNERS_FILE)} resolves outside the repository`);
    const text = fileExists ? (await readRegularFile(file, { maxBytes: MAX_FILE_BYTES, followSymlinks: true })).toString("utf8") : "";
    const current = parseAllowedSigners(text);
    const same = current.signers.find((s) => s.key === parsed.key);
    if (same) return { added: false, signer: same, file };
    const header = text ? "" : "# Signers whose Deliberative Search receipts are trusted: NAME ed25519 PUBLIC-KEY, one per line.\n# Review changes to this file like CODEOWNERS. Print your own line with `deliberate keys show`.\n";
    const line = `${parsed.name} ed25519 ${parsed.key}\n`;
    const next = `${header}${text}${text && !text.endsWith("\n") ? "\n" : ""}${line}`;
    await writeFileAtomic(file, next);
    const lineNo = next.split("\n").length - 1;
    return { added: true, signer: { name: parsed.name, key: parsed.key, keyId: parsed.keyId, line: lineNo }, file };
  });
}
