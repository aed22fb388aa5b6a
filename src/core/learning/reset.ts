// `deliberate stats --reset`: a signed marker, `<receiptsDir>/learning/reset.json`, after which earlier picks no
// longer count. It is a file in the repository (committed and reviewed like the receipts), not a deleted cache, so
// the weights stay a pure function of what is on disk: the receipts plus the marker. Only a marker signed by a
// trusted key (your own, or one in allowed_signers) counts; a planted or edited marker is reported and ignored.
import { createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { resolveInside } from "../contain";
import { canonicalJson } from "../hash";
import { isCanonicalSignature, keyIdOf, type SigningKey } from "../receipts/signing";
import { readRegularFile } from "../receipts/fsutil";
import { writeFileAtomic } from "../receipts/store";
import { classifySigner, describeTrust, type AllowedSigners } from "../receipts/trust";

/** A reset marker is a few hundred bytes; anything past this is no marker. */
const MAX_MARKER_BYTES = 64 * 1024;

export const LEARNING_DIR = "learning";
export const RESET_FILE = "reset.json";

const ResetMarkerSchema = z
  .object({
    kind: z.literal("learning-reset"),
    schema_version: z.literal(1),
    /** Picks made at or before this instant no longer count. */
    reset_at: z.string().datetime({ offset: true }),
    signing: z.object({ algorithm: z.literal("ed25519"), key_id: z.string(), public_key: z.string() }),
    signature: z.string(),
  })
  .strict();

export interface ResetState {
  /** The trusted reset in force, if any. */
  at?: string;
  by?: string;
  /** Why a marker on disk was ignored. */
  ignored?: string;
}

export function resetMarkerPath(repo: string, dirName: string): string {
  return join(repo, dirName, LEARNING_DIR, RESET_FILE);
}

/** The reset in force: the marker when it parses, its signature verifies and its signer is trusted. */
export async function readResetMarker(repo: string, dirName: string, ownPublicKeyPem: string | undefined, signers: AllowedSigners): Promise<ResetState> {
  const rel = join(dirName, LEARNING_DIR, RESET_FILE);
  const exists = await fs.lstat(join(repo, rel)).then(() => true, () => false);
  if (!exists) return {};
  const real = await resolveInside(repo, rel);
  if (!real) return { ignored: `${rel} resolves outside the repository` };
  let marker: z.infer<typeof ResetMarkerSchema>;
  try {
    const parsed = ResetMarkerSchema.safeParse(JSON.parse((await readRegularFile(real, { maxBytes: MAX_MARKER_BYTES, followSymlinks: true })).toString("utf8")));
    if (!parsed.success) return { ignored: `${rel} is not a valid reset marker` };
    marker = parsed.data;
  } catch (err) {
    return { ignored: `${rel} is unreadable: ${(err as Error).message.split("\n")[0]}` };
  }
  const { signature, ...body } = marker;
  let valid = false;
  try {
    valid =
      isCanonicalSignature(signature) &&
      keyIdOf(body.signing.public_key) === body.signing.key_id &&
      verify(null, Buffer.from(canonicalJson(body)), createPublicKey(body.signing.public_key), Buffer.from(signature, "base64"));
  } catch {
    valid = false;
  }
  if (!valid) return { ignored: `${rel}: signature does not verify` };
  const trust = classifySigner(body.signing.public_key, ownPublicKeyPem, signers);
  if (trust.trust === "untrusted") return { ignored: `${rel}: ${describeTrust(trust)}` };
  return { at: body.reset_at, by: trust.name ?? trust.keyId ?? "unknown" };
}

/** Writes a signed reset marker at `now` (atomically, replacing any earlier one) and returns its instant. */
export async function writeResetMarker(repo: string, dirName: string, key: SigningKey, now: Date): Promise<string> {
  const body = {
    kind: "learning-reset" as const,
    schema_version: 1 as const,
    reset_at: now.toISOString(),
    signing: { algorithm: "ed25519" as const, key_id: key.keyId, public_key: key.publicKeyPem },
  };
  const signature = sign(null, Buffer.from(canonicalJson(body)), createPrivateKey(key.privateKeyPem)).toString("base64");
  const file = resetMarkerPath(repo, dirName);
  const folder = join(repo, dirName);
  const folderOk = await resolveInside(repo, dirName);
  if (!folderOk) throw new Error(`${dirName} does not exist inside the repository: there are no picks to reset`);
  const learningExists = await fs.lstat(join(folder, LEARNING_DIR)).then(() => true, () => false);
  if (learningExists && !(await resolveInside(repo, join(dirName, LEARNING_DIR)))) throw new Error(`${dirName}/${LEARNING_DIR} resolves outside the repository`);
  await writeFileAtomic(file, JSON.stringify({ ...body, signature }, null, 2) + "\n");
  return body.reset_at;
}
