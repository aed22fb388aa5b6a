// Export a picked receipt as an ADR in the repository's own format (see plan.ts).
export { adrContent, defaultAdrTitle, type AdrContent } from "./content";
export { changedLineRange, unifiedDiff } from "./diff";
export { AdrExportError, AdrExportRefusedError, AdrNameTakenError } from "./errors";
export { ADR_FORMATS, DEFAULT_ADR_DIR, detectAdrLayout, nextAdrName, type AdrFormat, type AdrLayout, type AdrNaming } from "./layout";
export { applyAdrPlan, checkAdrPlan, exportAdr, planAdrExport, type AdrExportOptions, type AdrExportPlan, type AdrFileEdit, type SupersedeCandidate } from "./plan";
export { renderAdr } from "./render";
export { supersededText } from "./supersede";
