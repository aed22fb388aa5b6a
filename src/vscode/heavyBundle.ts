// The heavy bundle: the half of the extension that is bundled on its own into dist/heavyBundle.js
// (scripts/build.mjs) and loaded on first use through `loadHeavyBundle()` (loadHeavyBundle.ts). Everything behind it
// pulls in zod, the openai SDK, minisearch, linkedom, readability, simple-git, fast-glob, …: none of it may be
// imported at run time by extension.ts or anything it imports statically (`import type` is fine). What the host
// needs from src/core/ at run time goes through this facade.
//
// Each group below is initialised on its first call, not when the bundle loads (esbuild wraps a module reached
// through `require` in a lazy initialiser): the CodeLens validating the settings, or the sidebar listing receipts,
// does not also run the top level of the pipeline, the model SDK or the HTML extractors.
import type * as AdrExport from "../core/adrExport";
import type * as Classify from "../core/classify";
import type * as Config from "../core/config";
import type * as Discovery from "../core/internal/discovery";
import type * as Guard from "../core/guard";
import type * as CorpusStore from "../core/internal/corpus/store";
import type * as Learning from "../core/learning/load";
import type * as Pipeline from "../core/pipeline";
import type * as Signing from "../core/receipts/signing";
import type * as Store from "../core/receipts/store";
import type * as Freshness from "../core/receipts/freshness";
import type * as ReceiptDiff from "../core/receipts/diff";
import type * as SourcesFreshness from "../core/sources/freshness";
import type * as Trust from "../core/receipts/trust";
import type * as Render from "../core/render";
import type * as McpMain from "../mcp/main";
import type * as ProtocolSchemas from "../shared/protocolSchemas";
import type * as AgentInput from "./agentInput";
import type * as Models from "./models";
import type * as SettingsSchema from "./settingsSchema";

/* eslint-disable @typescript-eslint/no-require-imports */
const pipeline = once(() => require("../core/pipeline") as typeof Pipeline);
const classify = once(() => require("../core/classify") as typeof Classify);
const adrExport = once(() => require("../core/adrExport") as typeof AdrExport);
const config = once(() => require("../core/config") as typeof Config);
const discovery = once(() => require("../core/internal/discovery") as typeof Discovery);
const guard = once(() => require("../core/guard") as typeof Guard);
const corpusStore = once(() => require("../core/internal/corpus/store") as typeof CorpusStore);
const store = once(() => require("../core/receipts/store") as typeof Store);
const freshness = once(() => require("../core/receipts/freshness") as typeof Freshness);
const receiptDiff = once(() => require("../core/receipts/diff") as typeof ReceiptDiff);
const sourcesFreshness = once(() => require("../core/sources/freshness") as typeof SourcesFreshness);
const signing = once(() => require("../core/receipts/signing") as typeof Signing);
const trust = once(() => require("../core/receipts/trust") as typeof Trust);
const learning = once(() => require("../core/learning/load") as typeof Learning);
const render = once(() => require("../core/render") as typeof Render);
const protocolSchemas = once(() => require("../shared/protocolSchemas") as typeof ProtocolSchemas);
const settingsSchema = once(() => require("./settingsSchema") as typeof SettingsSchema);
const models = once(() => require("./models") as typeof Models);
const mcpServer = once(() => require("../mcp/main") as typeof McpMain);
const agentInput = once(() => require("./agentInput") as typeof AgentInput);
/* eslint-enable @typescript-eslint/no-require-imports */

// Deliberation: the pipeline, its question limit, and the discovery scan behind staleness.
export const deliberate = lazy(pipeline, "deliberate");
export const maxQuestionBytes = (): number => pipeline().MAX_QUESTION_BYTES;
export const resolveConfig = lazy(config, "resolveConfig");
export const discoverArtifacts = lazy(discovery, "discoverArtifacts");
export const hostCorpusCache = lazy(corpusStore, "hostCorpusCache");

// The decision guard (editor diagnostics): a change checked against the in-force decisions.
export const checkChange = lazy(guard, "checkChange");

// The CodeLens's plain-TODO predicate (the classifier reads clause structure with compromise).
export const isOpenQuestionTodo = lazy(classify, "isOpenQuestionTodo");

// Receipts: the store, signing and rendering.
export const listReceipts = lazy(store, "listReceipts");
export const loadReceiptFile = lazy(store, "loadReceiptFile");
export const receiptPath = lazy(store, "receiptPath");
export const recordPick = lazy(store, "recordPick");
export const verifyEntry = lazy(store, "verifyEntry");
export const generateSigningKey = lazy(signing, "generateSigningKey");
export const signingKeyFromPrivatePem = lazy(signing, "signingKeyFromPrivatePem");
export const verifyReceiptSignature = lazy(signing, "verifyReceiptSignature");
export const readAllowedSigners = lazy(trust, "readAllowedSigners");
export const describeTrust = lazy(trust, "describeTrust");
export const receiptToMarkdown = lazy(render, "receiptToMarkdown");
export const readEvidence = lazy(store, "readEvidence");

// Receipt freshness (cited lines re-hashed, the artifact set re-scanned) and the comparison of two receipts.
export const checkFreshnessAll = lazy(freshness, "checkFreshnessAll");
export const diffReceipts = lazy(receiptDiff, "diffReceipts");
// Where a decision source's citation is read (a folder's file, or a git source's cached copy at its commit).
export const sourceCitationTarget = lazy(sourcesFreshness, "sourceCitationTarget");

// Learning from picks: the sidebar's agreement rate and learned weights.
export const learningSummary = lazy(learning, "learningSummary");

// Export as ADR: the plan (what would be written), its pre-write checks, and the export recorded in the receipt.
export const planAdrExport = lazy(adrExport, "planAdrExport");
export const checkAdrPlan = lazy(adrExport, "checkAdrPlan");
export const recordAdrExport = lazy(store, "recordAdrExport");

// The webview protocol's zod validation of incoming messages.
export const parseWebviewMessage = lazy(protocolSchemas, "parseWebviewMessage");

// The settings' zod schemas and validator (config.ts's readSettings).
export const parseSettings = lazy(settingsSchema, "parseSettings");

// Model providers (the openai SDK, vscode.lm) and the egress preview.
export const resolveChatModel = lazy(models, "resolveChatModel");
export const modelStack = lazy(models, "modelStack");
export const egressPreviewText = lazy(models, "egressPreviewText");
export const externalEgressLines = lazy(models, "externalEgressLines");

// The MCP server (dist/mcpServer.js runs it in a plain Node process: this group never loads vscode).
export const mcpMain = lazy(mcpServer, "mcpMain");
// Its deliberation worker threads (dist/mcpWorker.js runs this in each).
export const mcpWorkerMain = lazy(mcpServer, "mcpWorkerMain");

// The language-model tool's input check (agentTool.ts).
export const parseAgentToolInput = lazy(agentInput, "parseAgentToolInput");

function once<T>(load: () => T): () => T {
  let m: T | undefined;
  return () => (m ??= load());
}

/** A function of a module that is loaded (and initialised) on the first call. */
function lazy<M, K extends keyof M>(mod: () => M, name: K): M[K] {
  return ((...args: unknown[]) => (mod()[name] as (...a: unknown[]) => unknown)(...args)) as M[K];
}
