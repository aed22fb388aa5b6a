// Secrets live in VS Code's SecretStorage, never in settings.json: the receipt-signing key (an Ed25519 private
// PEM, generated on first use) and the API key a model provider will use.
import * as vscode from "vscode";
import type { SigningKey } from "../core/receipts/signing";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";

export const API_KEY_SECRET = "deliberativeSearch.apiKey";
export const SIGNING_KEY_SECRET = "deliberativeSearch.signingKey.v1";

export class Secrets {
  private signingKeyPromise: Promise<SigningKey> | undefined;

  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly log: Log,
  ) {}

  /** The API key for a model provider, or undefined when none is set. */
  async getApiKey(): Promise<string | undefined> {
    const key = await this.storage.get(API_KEY_SECRET);
    return key ? key : undefined;
  }

  async setApiKey(value: string): Promise<void> {
    await this.storage.store(API_KEY_SECRET, value);
  }

  async clearApiKey(): Promise<void> {
    await this.storage.delete(API_KEY_SECRET);
  }

  /** The signing key: restored from SecretStorage, or generated and stored there on first use. */
  signingKey(): Promise<SigningKey> {
    this.signingKeyPromise ??= this.loadSigningKey().catch((err) => {
      this.signingKeyPromise = undefined;
      throw err;
    });
    return this.signingKeyPromise;
  }

  private async loadSigningKey(): Promise<SigningKey> {
    const { generateSigningKey, signingKeyFromPrivatePem } = loadHeavyBundle();
    let pem: string | undefined;
    try {
      pem = await this.storage.get(SIGNING_KEY_SECRET);
    } catch (err) {
      this.log.warn(`SecretStorage is unavailable (${String(err)}); this session signs with a temporary key`);
      return generateSigningKey();
    }
    if (pem) {
      try {
        return signingKeyFromPrivatePem(pem);
      } catch (err) {
        this.log.warn(`the stored signing key is unreadable (${String(err)}); generating a new one`);
      }
    }
    const key = generateSigningKey();
    try {
      await this.storage.store(SIGNING_KEY_SECRET, key.privateKeyPem);
      this.log.info(`generated a receipt signing key ${key.keyId} (kept in SecretStorage)`);
    } catch (err) {
      this.log.warn(`could not store the signing key (${String(err)}); it lasts for this session only`);
    }
    return key;
  }
}
