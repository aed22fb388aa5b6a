// The extension's constants. A leaf: it imports nothing, so any module (the activation path, the heavy bundle, the
// settings schema) can use it without creating an import cycle.

/** The settings section and command prefix. */
export const SECTION = "deliberativeSearch";

export const VIEW_ID = `${SECTION}.receipts`;
export const PICKER_VIEW_TYPE = `${SECTION}.picker`;

export const DEFAULT_CODELENS_TAGS = ["TODO(decide)", "DECIDE:", "OPEN QUESTION:", "QUESTION:"];

export const MODEL_PROVIDERS = ["none", "openai", "vscode-lm"] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const DEFAULT_MODEL_BASE_URL = "https://api.openai.com/v1";

export const UNTRUSTED_MESSAGE =
  "Deliberative Search is disabled in Restricted Mode: a deliberation reads your repository's files and runs git. Trust this workspace to use it.";
