// The Critic: argues against a drafted recommendation before anyone picks (rules.ts: always on, offline).
import type { DraftPicker } from "../schemas";
import { applyObjections, critique, type CriticInput, type RaisedObjection } from "./rules";

export { critique, findings, applyObjections, type CriticInput, type CriticCheck, type Finding, type RaisedObjection } from "./rules";
export { BLOCKING_KINDS, type FindingKind } from "./policy";

/** The rules Critic's pass: its objections, and the draft with them applied. */
export function reviewDraft(input: CriticInput): { draft: DraftPicker; raised: RaisedObjection[] } {
  const raised = critique(input);
  return { draft: applyObjections(input.draft, raised, input.evidence), raised };
}
