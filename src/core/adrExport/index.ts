// Export a picked receipt as an ADR in the repository's own format (see plan.ts).
export { adrContent, defaultAdrTitle, type AdrContent } from "./content";
export { changedLineRange, unifiedDiff } from "./diff";
export { AdrAlreadyExportedError, AdrExportError, AdrExportRefusedError, AdrNameTakenError } from "./errors";
export { ADR_FORMATS, DEFAULT_ADR_DIR, detectAdrLayout, nextAdrName, type AdrFormat, type AdrLayout, type AdrNaming } from "./layout";
export {
  applyAdrPlan,
  checkAdrPlan,
  exportAdr,
  planAdrExport,
  withAdrExportLock,
  type AdrExportOptions,
  type AdrExportPlan,
  type AdrExportResult,
  type AdrFileEdit,
  type SupersedeCandidate,
} from "./plan";
export { linkLabel } from "./plainText";
export { renderAdr } from "./render";
export { supersededText } from "./supersede";
