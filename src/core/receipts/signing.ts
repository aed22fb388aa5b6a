// Ed25519 signatures over the canonical JSON of a receipt. The private key never enters the repository: the CLI
// keeps it in the user's config directory, the extension in SecretStorage. The receipt carries the public key and
// key id so anyone can check that its bytes were not changed after signing; whether the key is one to TRUST is a
// separate question, answered by trust.ts (your own key, or a signer listed in the repository's allowed_signers).
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify } from "node:crypto";
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { canonicalJson, sha256 } from "../hash";
import type { Receipt, UnsignedReceipt } from "../schemas";

export interface SigningKey {
  keyId: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

export function keyIdOf(publicKeyPem: string): string {
  return `ed25519:${sha256(publicKeyPem.trim()).slice(0, 16)}`;
}

export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { keyId: keyIdOf(publicKeyPem), privateKeyPem, publicKeyPem };
}

/** Rebuilds a key from its private PEM (how the extension restores it from SecretStorage). */
export function signingKeyFromPrivatePem(privateKeyPem: string): SigningKey {
  const publicKeyPem = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: "spki", format: "pem" }).toString();
  return { keyId: keyIdOf(publicKeyPem), privateKeyPem, publicKeyPem };
}

/** The CLI's key folder: $DELIBERATIVE_KEY_DIR, else $XDG_CONFIG_HOME/deliberative-search, else ~/.config/deliberative-search. */
export function defaultKeyDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DELIBERATIVE_KEY_DIR) return env.DELIBERATIVE_KEY_DIR;
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "deliberative-search");
}

/** The key in `dir/signing-key.pem`, or undefined when there is none yet (nothing is created). */
export function loadKeyFileIfExists(dir: string = defaultKeyDir()): SigningKey | undefined {
  const file = join(dir, "signing-key.pem");
  let pem: string;
  try {
    pem = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read signing key ${file}: ${(err as Error).message}`);
  }
  return signingKeyFromPrivatePem(pem);
}

/** Loads the signing key from `dir/signing-key.pem`, creating it (mode 0600) on first use. */
export function loadOrCreateKeyFile(dir: string = defaultKeyDir()): SigningKey {
  const file = join(dir, "signing-key.pem");
  try {
    return signingKeyFromPrivatePem(readFileSync(file, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`cannot read signing key ${file}: ${(err as Error).message}`);
  }
  const key = generateSigningKey();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Publish the complete key with link(2): atomic, and it fails if another process got there first — then that
  // process's key wins and is read back, so concurrent first runs agree on one key.
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(tmp, key.privateKeyPem, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  try {
    linkSync(tmp, file);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return signingKeyFromPrivatePem(readFileSync(file, "utf8"));
  } finally {
    rmSync(tmp, { force: true });
  }
}

function signedBytes(receipt: UnsignedReceipt): Buffer {
  return Buffer.from(canonicalJson(receipt), "utf8");
}

export function signReceipt(unsigned: Omit<UnsignedReceipt, "signing">, key: SigningKey): Receipt {
  const withKey: UnsignedReceipt = {
    ...unsigned,
    signing: { algorithm: "ed25519", key_id: key.keyId, public_key: key.publicKeyPem },
  };
  const signature = sign(null, signedBytes(withKey), createPrivateKey(key.privateKeyPem)).toString("base64");
  return { ...withKey, signature };
}

export interface SignatureCheck {
  ok: boolean;
  reason?: string;
}

/** An Ed25519 signature is 64 bytes: 86 base64 characters and "==". */
const SIGNATURE_B64 = /^[A-Za-z0-9+/]{86}==$/;

/**
 * True when `signature` is the one canonical base64 spelling of 64 bytes. Node's base64 decoder ignores stray
 * characters and the unused low bits of the last character, so several strings decode to the same bytes; only the
 * spelling that re-encodes to itself is accepted, so any changed character of the receipt is detected.
 */
export function isCanonicalSignature(signature: string): boolean {
  if (!SIGNATURE_B64.test(signature)) return false;
  const bytes = Buffer.from(signature, "base64");
  return bytes.length === 64 && bytes.toString("base64") === signature;
}

/**
 * Verifies over the object exactly as it was read from disk (not a schema-parsed copy), so an added, removed or
 * changed field anywhere fails the check. The signature must be canonical base64 (see isCanonicalSignature).
 * This says nothing about WHO signed: see trust.ts.
 */
export function verifyReceiptSignature(receipt: Receipt | Record<string, unknown>): SignatureCheck {
  if (!receipt || typeof receipt !== "object" || Array.isArray(receipt)) return { ok: false, reason: "receipt is not an object" };
  const { signature, ...unsigned } = receipt as Record<string, unknown>;
  const signing = unsigned.signing as { key_id?: unknown; public_key?: unknown } | undefined;
  if (typeof signature !== "string" || !signing || typeof signing !== "object" || typeof signing.public_key !== "string") {
    return { ok: false, reason: "receipt is not signed" };
  }
  if (!isCanonicalSignature(signature)) return { ok: false, reason: "the signature is not canonical base64 of 64 bytes" };
  try {
    if (keyIdOf(signing.public_key) !== signing.key_id) return { ok: false, reason: "key id does not match the public key" };
    const key = createPublicKey(signing.public_key);
    if (key.asymmetricKeyType !== "ed25519") return { ok: false, reason: "the public key is not an Ed25519 key" };
    const ok = verify(null, signedBytes(unsigned as UnsignedReceipt), key, Buffer.from(signature, "base64"));
    return ok ? { ok: true } : { ok: false, reason: "signature does not match the receipt's content" };
  } catch (err) {
    return { ok: false, reason: `signature check failed: ${(err as Error).message.split("\n")[0].slice(0, 200)}` };
  }
}

/** The fields a re-sign (a pick, an ADR export) may change; everything else stays as the minter signed it. */
export const RESIGNABLE_FIELDS = ["operator_pick", "picks", "adr_exports"] as const;

/**
 * The `minted_by` block for re-signing `raw` (the receipt as read from disk, its signature already checked): the
 * block it already carries (the first minter is kept), else its current signing block, signature and pick fields.
 */
export function mintedByOf(raw: Record<string, unknown>): Record<string, unknown> {
  if (raw.minted_by && typeof raw.minted_by === "object") return raw.minted_by as Record<string, unknown>;
  const signing = raw.signing as { algorithm: string; key_id: string; public_key: string };
  const count = (v: unknown) => (Array.isArray(v) ? { n: v.length } : undefined);
  const picks = count(raw.picks);
  const exports = count(raw.adr_exports);
  return {
    algorithm: signing.algorithm,
    key_id: signing.key_id,
    public_key: signing.public_key,
    signature: raw.signature,
    operator_pick: raw.operator_pick ?? null,
    ...(picks ? { picks: picks.n } : {}),
    ...(exports ? { adr_exports: exports.n } : {}),
  };
}

/**
 * The receipt as its minter signed it, rebuilt from the current one: the pick fields cut back to what they held
 * then (re-signs only append to `picks` and `adr_exports`), the minter's signing block and signature restored.
 * Undefined when `raw` carries no minted_by or the counts do not fit.
 */
export function mintedVersionOf(raw: Record<string, unknown>): Record<string, unknown> | undefined {
  const m = raw.minted_by as Record<string, unknown> | undefined;
  if (!m || typeof m !== "object" || Array.isArray(m)) return undefined;
  const { minted_by: _m, signature: _s, signing: _k, ...rest } = raw;
  const out: Record<string, unknown> = { ...rest, operator_pick: m.operator_pick ?? null };
  for (const field of ["picks", "adr_exports"] as const) {
    const n = m[field];
    delete out[field];
    if (n === undefined) continue;
    const list = raw[field];
    if (typeof n !== "number" || !Array.isArray(list) || n > list.length) return undefined;
    out[field] = list.slice(0, n);
  }
  out.signing = { algorithm: m.algorithm, key_id: m.key_id, public_key: m.public_key };
  out.signature = m.signature;
  return out;
}

/**
 * Checks the minter's signature over the rebuilt minted receipt. It proves the minter signed this question,
 * payload, evidence hashes and pick state; the picks added since are covered only by the current signature.
 */
export function verifyMintedBy(raw: Record<string, unknown>): SignatureCheck {
  const minted = mintedVersionOf(raw);
  if (!minted) return { ok: false, reason: "minted_by does not fit the receipt (more picks or exports than it has)" };
  const check = verifyReceiptSignature(minted);
  return check.ok ? check : { ok: false, reason: `minting signature: ${check.reason ?? "does not match"}` };
}
