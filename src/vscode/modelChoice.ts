// Which model a deliberation uses: none (the rules path) unless a provider is configured, usable and consented to.
// Before the first model call in a workspace, a rules-only probe run (the same request, writing nothing) computes
// the egress preview and the user answers the consent prompt. A provider that cannot be used, or a refused consent,
// ends on the rules path, and says so once.
import * as vscode from "vscode";
import { throwIfCancelled } from "../core/cancel";
import type { DeliberateOutcome } from "../core/pipeline";
import type { QueryPlanner, Synthesizer } from "../core/types";
import type { Report } from "./cancellableProgress";
import { askConsent, type EgressPreviewDocuments, type ModelConsent, type StoredConsent } from "./consent";
import { SECTION } from "./constants";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";
import type { ModelResolution } from "./models";
import { toModelSettings, type ModelSettings } from "./modelSettings";
import { buildDeliberateRequest, type DeliberationRequest, type RunHooks } from "./request";
import { describeProgress } from "./runReport";
import type { Secrets } from "./secrets";
import type { Settings } from "./settingsSchema";

export type UsedModel = Extract<ModelResolution, { kind: "model" }>;
type Unavailable = Extract<ModelResolution, { kind: "unavailable" }>;
export type ModelStack = { planner?: QueryPlanner; synthesizer?: Synthesizer };

/** The stack to deliberate with (empty: rules), or the probe's outcome when the question was refused. */
export type ModelChoiceResult = { stack: ModelStack; used?: UsedModel } | { outcome: DeliberateOutcome };

const RULES: ModelChoiceResult = { stack: {} };

export class ModelChoice {
  /** Notices already shown this session (one-line warnings are not repeated on every deliberation). */
  private readonly noticed = new Set<string>();

  constructor(
    private readonly secrets: Secrets,
    private readonly log: Log,
    private readonly consent: ModelConsent,
    private readonly previews: EgressPreviewDocuments,
  ) {}

  /** The configured provider's chat model, or why there is none. `s` has `offline` applied. */
  resolve(s: ModelSettings): Promise<ModelResolution> {
    return loadHeavyBundle().resolveChatModel(s, { getApiKey: () => this.secrets.getApiKey() });
  }

  async choose(req: DeliberationRequest, settings: Settings, hooks: RunHooks, report: Report): Promise<ModelChoiceResult> {
    const s = toModelSettings(settings);
    if (s.offlineOverride) {
      this.noticeOnce(`offline:${s.offlineOverride}`, `offline mode: the configured model provider "${s.offlineOverride}" is not used (no network at all); rules planner and synthesizer.`);
      return RULES;
    }
    if (s.provider === "none") return RULES;
    const resolved = await this.resolve(s);
    if (resolved.kind === "none") return RULES;
    if (resolved.kind === "unavailable") {
      this.unavailable(resolved);
      return RULES;
    }
    this.log.info(`model: ${resolved.describe}`);
    const consent = this.consent.get(resolved.provider, resolved.host) ?? (await this.askFirstTime(req, settings, s, resolved, hooks, report));
    if (!consent) return RULES;
    if ("outcome" in consent) return consent;
    const keepInternalLocal = s.keepInternalLocal || consent.choice === "keep-local";
    if (keepInternalLocal) this.log.info(`model: internal snippets stay local (${s.keepInternalLocal ? "setting" : "workspace consent"}); only the question and external evidence are sent`);
    return { stack: loadHeavyBundle().modelStack(resolved.chat, s, keepInternalLocal), used: resolved };
  }

  /**
   * The first model deliberation in this workspace: the probe computes the egress preview and the user answers.
   * A probe that abstains is returned as the outcome (the real run would abstain the same way: the classifier uses
   * no model).
   */
  private async askFirstTime(
    req: DeliberationRequest,
    settings: Settings,
    s: ModelSettings,
    resolved: UsedModel,
    hooks: RunHooks,
    report: Report,
  ): Promise<StoredConsent | { outcome: DeliberateOutcome } | undefined> {
    const heavy = loadHeavyBundle();
    report("preparing the egress preview (nothing is sent)…");
    const previewProgress: RunHooks["onProgress"] = (e) => {
      const msg = describeProgress(e);
      report(msg && `preview: ${msg}`);
    };
    const probe = await heavy.deliberate(buildDeliberateRequest(req, settings, { ...hooks, preview: true, onProgress: previewProgress }));
    if (probe.kind === "abstained") return { outcome: probe };
    const text = heavy.egressPreviewText(probe, resolved, s, s.keepInternalLocal, settings, req.context);
    report("waiting for your consent…");
    const choice = await askConsent(text, { host: resolved.host, model: resolved.chat.id, keepInternalLocalAlready: s.keepInternalLocal, documents: this.previews });
    throwIfCancelled(hooks.signal);
    if (!choice) {
      this.log.info(`model consent for ${resolved.host} not given; this deliberation uses the rules planner and synthesizer (nothing is sent)`);
      void vscode.window.showInformationMessage(
        `Deliberative Search: nothing was sent to ${resolved.host}. This deliberation uses the offline rules synthesizer; the next one asks again (set ${SECTION}.model.provider to "none" to stop using a model).`,
      );
      return undefined;
    }
    const stored = await this.consent.set(resolved.provider, resolved.host, resolved.chat.id, choice);
    this.log.info(`model consent for ${resolved.host} in this workspace: ${choice === "keep-local" ? "allowed, internal snippets kept local" : "allowed"}`);
    return stored;
  }

  /** A provider is configured but cannot be used: one line in the log every time, one notification per reason. */
  private unavailable(r: Unavailable): void {
    const message = `model provider "${r.provider}" is not available: ${r.reason}. This deliberation uses the rules planner and synthesizer.`;
    this.log.warn(message);
    if (this.noticed.has(`unavailable:${r.reason}`)) return;
    this.noticed.add(`unavailable:${r.reason}`);
    const action = r.action === "setApiKey" ? "Set API Key" : r.action === "openSettings" ? "Open Settings" : undefined;
    void vscode.window.showWarningMessage(`Deliberative Search: ${message}`, ...(action ? [action] : []), "Show Log").then((choice) => {
      if (choice === "Set API Key") void vscode.commands.executeCommand(`${SECTION}.setApiKey`);
      else if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", `${SECTION}.model`);
      else if (choice === "Show Log") this.log.show();
    });
  }

  private noticeOnce(id: string, message: string): void {
    if (this.noticed.has(id)) return;
    this.noticed.add(id);
    this.log.info(message);
  }
}
