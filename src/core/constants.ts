// Constants that light modules (the extension's activation path, the webview) need without pulling in zod.

/** The recommendation when the evidence cannot separate the options. */
export const UNDECIDABLE = "undecidable-on-current-evidence" as const;

/** ADR statuses that no longer decide anything: a superseded, deprecated or rejected record. */
export const INACTIVE_ADR_STATUSES: ReadonlySet<string> = new Set(["superseded", "deprecated", "rejected"]);
