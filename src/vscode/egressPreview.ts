// "Preview Egress" and "Reset Model Consent": what a model deliberation on a question would send, computed locally
// with the same request a deliberation builds (nothing is sent), and forgetting this workspace's consent.
import * as vscode from "vscode";
import { isCancellation } from "../core/cancel";
import { withCancellableProgress } from "./cancellableProgress";
import { ALLOW, KEEP_LOCAL, describeConsent, type EgressPreviewDocuments, type ModelConsent } from "./consent";
import { SECTION } from "./constants";
import { readSettings } from "./config";
import { loadHeavyBundle } from "./loadHeavyBundle";
import type { Log } from "./log";
import type { ModelChoice, UsedModel } from "./modelChoice";
import { toModelSettings, type ModelSettings } from "./modelSettings";
import { requestForPreview } from "./prompts";
import { buildDeliberateRequest, type RunHooks } from "./request";
import { describeProgress } from "./runReport";
import type { Secrets } from "./secrets";

export class ConsentCommands {
  constructor(
    private readonly secrets: Secrets,
    private readonly log: Log,
    private readonly models: ModelChoice,
    private readonly consent: ModelConsent,
    private readonly previews: EgressPreviewDocuments,
  ) {}

  /** "Preview Egress": the egress preview for a question, then (without consent yet) the consent question. */
  async previewEgress(): Promise<void> {
    const req = await requestForPreview();
    if (!req) return;
    const settings = readSettings(req.folder);
    const s = toModelSettings(settings);
    const heavy = loadHeavyBundle();
    const header = [`Deliberative Search — egress preview for ${req.folder.name}`, `Question: ${req.question}`, ""];
    const noCall = async (why: string) => this.previews.open([...header, why, ...heavy.externalEgressLines(settings)].join("\n"));
    if (s.provider === "none") {
      const why = s.offlineOverride ? `offline mode is on, so the configured model provider "${s.offlineOverride}" is not used` : `no model provider is configured (${SECTION}.model.provider is "none")`;
      return noCall(`No model call: ${why}. Nothing from the repository leaves the machine for a model.`);
    }
    const resolved = await this.models.resolve(s);
    if (resolved.kind !== "model") {
      const why = resolved.kind === "unavailable" ? resolved.reason : "no model";
      return noCall(`No model call: provider "${s.provider}" is not available (${why}). Deliberations use the rules synthesizer.`);
    }
    const consent = this.consent.get(resolved.provider, resolved.host);
    const keepInternalLocal = s.keepInternalLocal || consent?.choice === "keep-local";
    let probe;
    try {
      probe = await withCancellableProgress("Preparing the egress preview (nothing is sent)", async (report, signal) => {
        const hooks: RunHooks = { signingKey: await this.secrets.signingKey(), signal, onProgress: (e) => report(describeProgress(e)), preview: true };
        return heavy.deliberate(buildDeliberateRequest(req, settings, hooks));
      });
    } catch (err) {
      if (!isCancellation(err)) throw err;
      this.log.info("egress preview cancelled");
      return;
    }
    if (probe.kind !== "deliberated") return;
    const egress = heavy.egressPreviewText(probe, resolved, s, keepInternalLocal, settings, req.context);
    await this.previews.open([...header, `Model: ${resolved.describe}`, `Consent: ${describeConsent(consent)}`, "", egress].join("\n"));
    if (!consent) await this.offerConsent(resolved, s);
  }

  private async offerConsent(resolved: UsedModel, s: ModelSettings): Promise<void> {
    const choice = await vscode.window.showInformationMessage(
      `Deliberative Search: allow model deliberations to send this kind of content to ${resolved.host} in this workspace?`,
      ALLOW,
      ...(s.keepInternalLocal ? [] : [KEEP_LOCAL]),
    );
    if (!choice) return;
    const stored = await this.consent.set(resolved.provider, resolved.host, resolved.chat.id, choice === KEEP_LOCAL || s.keepInternalLocal ? "keep-local" : "allow");
    this.log.info(`model consent for ${resolved.host} in this workspace: ${stored.choice === "keep-local" ? "allowed, internal snippets kept local" : "allowed"} (from Preview Egress)`);
  }

  /** "Reset Model Consent": the next model deliberation in this workspace shows the egress preview again. */
  async resetConsent(): Promise<void> {
    const n = await this.consent.reset();
    this.log.info(`model consent reset for this workspace (${n} endpoint(s) forgotten)`);
    void vscode.window.showInformationMessage(
      n
        ? "Deliberative Search: model consent for this workspace was reset. The next model deliberation shows the egress preview again."
        : "Deliberative Search: no model consent was stored for this workspace.",
    );
  }
}
