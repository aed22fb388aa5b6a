// The ways an export stops before anything is written.

/** Bad input (no pick, a missing or read-only ADR, a folder that cannot be used): one line, nothing written. */
export class AdrExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdrExportError";
  }
}

/** The receipt failed verification (signature, signer, evidence): it is not exported, nothing is written. */
export class AdrExportRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AdrExportRefusedError";
  }
}

/** The planned file name was taken between planning and writing; planning again picks the next free name. */
export class AdrNameTakenError extends Error {
  constructor(readonly path: string) {
    super(`${path} was created by someone else meanwhile`);
    this.name = "AdrNameTakenError";
  }
}

/**
 * The receipt's current pick was already exported and that ADR is still there: exporting again would write a
 * duplicate (and a second claim to supersede the same record), so nothing is written and the first export is named.
 */
export class AdrAlreadyExportedError extends Error {
  constructor(
    readonly receiptId: string,
    readonly path: string,
    readonly at: string,
  ) {
    super(`receipt ${receiptId} was already exported as ${path} (${at.slice(0, 10)}); nothing was written (a new pick can be exported again)`);
    this.name = "AdrAlreadyExportedError";
  }
}
