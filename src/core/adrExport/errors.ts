// The two ways an export can fail before anything is written.

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
