// Constants that light modules (the extension's activation path, the webview) need without pulling in zod.

/** The recommendation when the evidence cannot separate the options. */
export const UNDECIDABLE = "undecidable-on-current-evidence" as const;

/** ADR statuses that no longer decide anything: a superseded, deprecated or rejected record. */
export const INACTIVE_ADR_STATUSES: ReadonlySet<string> = new Set(["superseded", "deprecated", "rejected"]);

/**
 * Which revision of the pipeline computed a stored turn: the turn cache serves an entry only to the revision that
 * wrote it, so an upgrade never answers with a payload the old code computed. Bump it with any change that alters
 * the payload for the same inputs (an answer, an objection, a field of the evidence).
 */
export const PIPELINE_REVISION = 10;
