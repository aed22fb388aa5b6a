// The option-picker webview. It renders a PickerModel sent by the host and asks the host for every effect
// (open a citation, record a pick, copy Markdown) over the typed protocol in src/shared/protocol.ts. All text
// from the receipt is inserted with textContent / text nodes, never as HTML.
import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-badge/index.js";
import "@vscode-elements/elements/dist/vscode-collapsible/index.js";
import "@vscode-elements/elements/dist/vscode-textarea/index.js";
import "@vscode-elements/elements/dist/vscode-single-select/index.js";
import "@vscode-elements/elements/dist/vscode-option/index.js";
import { UNDECIDABLE } from "../src/core/constants";
import { invisibleSafe } from "../src/core/sanitize";
import { describeFallback, isModelFailure } from "../src/core/fallback";
import type { Citation, Option, StageStatus } from "../src/core/schemas";
import { SUMMARY_STAGES, stageTitle } from "../src/core/stages";
import { PROTOCOL_VERSION, PendingRequests, type ChangesModel, type PickerModel, type RequestMethod, type RequestParams } from "../src/shared/protocol";
import { checkResult, parseHostMessage } from "../src/shared/protocolSchemas";

interface SavedState {
  folderUri: string;
  receiptId: string;
}

const vscode = acquireVsCodeApi<SavedState>();
const app = document.getElementById("app") as HTMLElement;

let model: PickerModel | undefined;
let overrideOpen = false;
/** "What changed since <date>": sent by the host after a render when an earlier receipt of the question exists. */
let changes: ChangesModel | undefined;
/** Requests in flight: each settles with its reply, or rejects after REQUEST_TIMEOUT_MS. */
const requests = new PendingRequests({ post: (message) => vscode.postMessage(message), checkResult });

// ---------------------------------------------------------------------------------------------------------
// DOM helpers: text only.

type Child = Node | string | number | false | null | undefined;
type Attrs = Record<string, string | number | boolean | undefined | EventListener>;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K];
function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement;
function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, "").toLowerCase(), v);
    else if (k === "class") el.className = String(v);
    // Tooltips and accessible names carry receipt text too (option titles, stage reasons).
    else el.setAttribute(k, v === true ? "" : k === "title" || k === "aria-label" ? invisibleSafe(String(v)) : String(v));
  }
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: Child[]): void {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    // Text only, and without bidi overrides or invisible characters, which could reorder or hide what is shown.
    el.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(invisibleSafe(String(c))) : c);
  }
}

function letter(i: number): string {
  return String.fromCharCode(65 + i);
}

// ---------------------------------------------------------------------------------------------------------
// Host messaging.

let toastTimer: ReturnType<typeof setTimeout> | undefined;
function toast(text: string, kind: "info" | "error" = "info"): void {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = invisibleSafe(text);
  el.className = `toast show ${kind}`;
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.className = "toast"), kind === "error" ? 8000 : 4000);
}

/**
 * Asks the host for an effect, with `button` disabled meanwhile. Success shows the host's notice; a failure, a
 * malformed reply or no reply in time shows one error line, and the button is usable again either way.
 */
async function run<M extends RequestMethod>(button: HTMLElement | undefined, method: M, params: RequestParams<M>): Promise<boolean> {
  button?.setAttribute("disabled", "");
  document.body.classList.add("busy");
  try {
    const result = (await requests.send(method, params)) as { message?: string } | null;
    if (result?.message) toast(result.message);
    return true;
  } catch (err) {
    toast(err instanceof Error ? err.message : String(err), "error");
    return false;
  } finally {
    button?.removeAttribute("disabled");
    document.body.classList.remove("busy");
  }
}

/** A click handler that runs a request with the clicked control disabled. */
function onClick<M extends RequestMethod>(method: M, params: RequestParams<M>): EventListener {
  return ((e: Event) => void run(e.currentTarget as HTMLElement, method, params)) as EventListener;
}

window.addEventListener("message", (event: MessageEvent) => {
  const msg = parseHostMessage(event.data);
  if (!msg) return;
  if (msg.type === "render") {
    model = msg.model;
    vscode.setState({ folderUri: model.folderUri, receiptId: model.receiptId });
    render();
  } else if (msg.type === "changes") {
    changes = msg.changes;
    render();
  } else requests.settle(msg);
});

// ---------------------------------------------------------------------------------------------------------
// Rendering.

function citationIndex(id: string): number {
  return model ? model.payload.citations.findIndex((c) => c.id === id) : -1;
}

function location(c: Citation): string {
  if (c.kind === "external") {
    try {
      const u = new URL(c.path_or_url);
      return `${u.host}${u.pathname === "/" ? "" : u.pathname}`;
    } catch {
      return c.path_or_url;
    }
  }
  if (c.commit && (c.precision_class === "commit" || !c.line_range)) return `${c.commit.slice(0, 7)} · ${c.path_or_url}`;
  if (c.line_range) return `${c.path_or_url}:${c.line_range.start}${c.line_range.end !== c.line_range.start ? `–${c.line_range.end}` : ""}`;
  return c.path_or_url;
}

function kindGlyph(c: Citation): { glyph: string; label: string } {
  if (c.kind === "external") return { glyph: "↗", label: "external source" };
  if (c.commit && (c.precision_class === "commit" || !c.line_range)) return { glyph: "⎇", label: "commit" };
  return { glyph: "§", label: "file" };
}

/** A clickable citation: keyboard-focusable native button; the host opens it. */
function citeButton(id: string, opts: { compact?: boolean; stacked?: boolean } = {}): HTMLElement {
  const i = citationIndex(id);
  const c = i >= 0 ? model!.payload.citations[i] : undefined;
  if (!c) return h("span", { class: "cite missing" }, `[${id}]`);
  const k = kindGlyph(c);
  const btn = h(
    "button",
    {
      type: "button",
      class: `cite${c.resolution_failed ? " unresolved" : ""}${opts.compact ? " compact" : ""}${opts.stacked ? " stacked" : ""}`,
      "data-citation-id": c.id,
      title: `Open ${k.label}: ${location(c)}${c.resolution_failed ? " (no longer resolves)" : ""}`,
      onclick: onClick("openCitation", { citationId: c.id }),
    },
    h("span", { class: "cite-num" }, `${i + 1}`),
    h("span", { class: "cite-kind", "aria-hidden": "true" }, k.glyph),
    h("span", { class: "cite-title" }, c.title ?? c.path_or_url),
    opts.compact ? null : h("span", { class: "cite-loc" }, location(c)),
  );
  return btn;
}

function levelBadge(name: string, level: string): HTMLElement {
  return h("span", { class: `level level-${level}`, title: `${name}: ${level}` }, h("span", { class: "level-name" }, name), h("span", { class: "level-value" }, level));
}

function stageChip(name: string, s: StageStatus | undefined): HTMLElement {
  const status = s?.status ?? "skipped";
  const title = stageTitle(name);
  const chip = h(
    "span",
    { class: `stage stage-${status}`, "data-stage": name, title: s?.reason ? `${title}: ${status} — ${s.reason}` : `${title}: ${status}` },
    h("span", { class: "stage-dot", "aria-hidden": "true" }),
    h("span", { class: "stage-name" }, title),
    h("span", { class: "stage-status" }, status + (s && s.count && status === "ok" ? ` · ${s.count}` : "")),
  );
  return chip;
}

function renderHeader(m: PickerModel): HTMLElement {
  const created = new Date(m.createdAt);
  const when = isNaN(created.getTime()) ? m.createdAt : created.toLocaleString();
  const sig =
    m.signature.state === "valid"
      ? h("span", { class: "pill ok", title: `Ed25519 signature valid (${m.signature.keyId})` }, "✓ signed")
      : h("span", { class: "pill bad", title: m.signature.reason ?? "signature invalid" }, "✗ signature invalid");
  return h(
    "header",
    { class: "top" },
    h("div", { class: "eyebrow" }, "Open question", h("span", { class: "sep" }, "·"), m.folderName, m.context?.file ? h("span", { class: "sep" }, "·") : null, m.context?.file ? `${m.context.file}${m.context.line ? `:${m.context.line}` : ""}` : null),
    h("h1", { class: "question", id: "question" }, m.payload.question),
    h(
      "div",
      { class: "meta" },
      sig,
      synthesisPill(m),
      m.cached ? h("span", { class: "pill", title: "Same question, config and artifacts: answered from the turn cache" }, "cached") : null,
      m.classMismatch ? h("span", { class: "pill warn", title: "The classifier did not call this an open question; deliberated anyway" }, "forced") : null,
      h("span", { class: "muted" }, when),
    ),
  );
}

function renderStages(m: PickerModel): HTMLElement {
  const cov = m.payload.coverage;
  return h(
    "section",
    { class: "stages", "aria-label": "Stage status and coverage" },
    h("div", { class: "stage-line", id: "stage-line" }, ...SUMMARY_STAGES.map((n) => stageChip(n, m.stages[n]))),
    h(
      "div",
      { class: "coverage", id: "coverage", title: "How much cited evidence the options rest on" },
      h("span", { class: "coverage-label" }, "Coverage"),
      h("span", null, h("strong", null, String(cov.internal)), " internal"),
      h("span", null, h("strong", null, String(cov.external)), " external"),
    ),
    ...SUMMARY_STAGES.map((n) => [n, m.stages[n]] as const)
      .filter(([, s]) => s && s.status !== "ok" && s.reason)
      .map(([n, s]) => h("p", { class: "stage-reason" }, h("strong", null, `${stageTitle(n)}: `), s!.reason!)),
    // A model step that did not count: the plan or the synthesis fell back to the rules path, and why.
    m.fallbacks.plan
      ? h("p", { class: "stage-reason", id: "plan-reason" }, h("strong", null, `${stageTitle("plan")}: `), `rules plan used — ${describeFallback(m.fallbacks.plan)}`)
      : null,
    m.fallbacks.synthesis
      ? h("p", { class: "stage-reason", id: "synthesis-fallback" }, h("strong", null, `${stageTitle("synthesis")}: `), `rules synthesizer used — ${describeFallback(m.fallbacks.synthesis)}`)
      : null,
  );
}

function synthesisPill(m: PickerModel): HTMLElement {
  const s = m.synthesis;
  if (s.mode === "model") return h("span", { class: "pill", id: "synthesis-mode", title: `Options weighed by ${s.model ?? "the model"}` }, `model synthesis${s.model ? ` · ${s.model}` : ""}`);
  const fallback = m.fallbacks.synthesis;
  if (fallback) {
    const failed = isModelFailure(fallback);
    return h("span", { class: failed ? "pill warn" : "pill", id: "synthesis-mode", title: describeFallback(fallback) }, failed ? "rules synthesis · model failed" : "rules synthesis");
  }
  return h("span", { class: "pill", id: "synthesis-mode", title: "Offline rules synthesizer" }, "rules synthesis");
}

function renderPickBanner(m: PickerModel): HTMLElement | null {
  const pick = m.operatorPick;
  if (!pick) return null;
  const option = m.payload.options.find((o) => o.id === pick.option_id);
  const when = new Date(pick.at);
  return h(
    "section",
    { class: `decided ${pick.overrode_recommendation ? "overrode" : "accepted"}`, id: "decided", role: "status" },
    h("div", { class: "decided-icon", "aria-hidden": "true" }, pick.overrode_recommendation ? "⇄" : "✓"),
    h(
      "div",
      null,
      h("div", { class: "decided-title" }, "Decided: ", h("strong", null, option?.title ?? pick.option_id)),
      h(
        "div",
        { class: "muted" },
        pick.overrode_recommendation ? "Overrode the recommendation" : m.payload.recommendation.option_id === UNDECIDABLE ? "Picked without a recommendation" : "Accepted the recommendation",
        " · ",
        isNaN(when.getTime()) ? pick.at : when.toLocaleString(),
        " · signed in the receipt",
      ),
      pick.reason ? h("blockquote", { class: "reason" }, pick.reason) : null,
    ),
  );
}

function renderRecommendation(m: PickerModel): HTMLElement {
  const rec = m.payload.recommendation;
  if (rec.option_id === UNDECIDABLE) {
    return h(
      "section",
      { class: "callout undecidable", id: "recommendation", "aria-label": "Recommendation" },
      h("div", { class: "callout-label" }, "Undecidable on current evidence"),
      h("p", null, rationaleBeforeNote(m)),
      dissentNote(m),
      h("p", { class: "muted" }, "The sources do not separate the options. Pick one and say why, or add an ADR that decides it."),
    );
  }
  const i = m.payload.options.findIndex((o) => o.id === rec.option_id);
  const option = m.payload.options[i];
  return h(
    "section",
    { class: "callout recommended", id: "recommendation", "aria-label": "Recommendation" },
    h("div", { class: "callout-label" }, "Recommended", h("vscode-badge", { class: `conf conf-${rec.confidence}`, title: "confidence" }, `${rec.confidence} confidence`)),
    h("div", { class: "callout-title" }, h("span", { class: "letter" }, letter(i)), option?.title ?? rec.option_id),
    h("p", { class: "rationale" }, rationaleBeforeNote(m)),
    dissentNote(m),
  );
}

/** The rationale without the dissent note it ends with: the note gets a line of its own (dissentNote). */
function rationaleBeforeNote(m: PickerModel): string {
  const rationale = m.payload.recommendation.rationale;
  const note = m.payload.model_dissent?.note;
  return note && rationale.endsWith(note) && rationale.length > note.length ? rationale.slice(0, -note.length).trimEnd() : rationale;
}

/** A model that recommends against the record that decided the question says so on its own line (textContent). */
function dissentNote(m: PickerModel): HTMLElement | null {
  const dissent = m.payload.model_dissent;
  return dissent ? h("p", { class: "rationale model-dissent", id: "model-dissent", role: "note" }, h("strong", null, "Note: "), dissent.note) : null;
}

function citeList(label: string, ids: string[], kind: "supports" | "dissent"): HTMLElement | null {
  if (ids.length === 0) return null;
  return h(
    "div",
    { class: `evidence-list ${kind}` },
    h("div", { class: "list-label" }, h("span", { class: "mark", "aria-hidden": "true" }, kind === "supports" ? "✓" : "✗"), `${label} (${ids.length})`),
    h("ul", null, ...ids.map((id) => h("li", null, citeButton(id, { stacked: true })))),
  );
}

function renderOption(m: PickerModel, o: Option, i: number): HTMLElement {
  const recommended = m.payload.recommendation.option_id === o.id;
  const picked = m.operatorPick?.option_id === o.id;
  const button = h(
    "vscode-button",
    {
      class: "pick",
      "data-option-id": o.id,
      secondary: !recommended && !picked,
      "aria-label": `Pick ${o.title}`,
      onclick: onClick("pick", { optionId: o.id }),
    },
    picked ? "✓ Picked" : m.operatorPick ? "Pick this instead" : recommended ? "Pick (recommended)" : "Pick",
  );
  if (picked) button.setAttribute("disabled", "");
  return h(
    "article",
    { class: `card${recommended ? " recommended" : ""}${picked ? " picked" : ""}`, "data-option-id": o.id, "aria-label": `Option ${letter(i)}: ${o.title}` },
    h(
      "header",
      { class: "card-head" },
      h("span", { class: "letter" }, letter(i)),
      h("h3", null, o.title),
      recommended ? h("vscode-badge", { class: "tag-rec" }, "recommended") : null,
      picked ? h("vscode-badge", { class: "tag-picked" }, "picked") : null,
    ),
    h("p", { class: "summary" }, o.summary),
    h("div", { class: "levels" }, levelBadge("cost", o.cost), levelBadge("risk", o.risk), o.confidence ? levelBadge("confidence", o.confidence) : null),
    o.tradeoffs.length ? h("ul", { class: "tradeoffs", "aria-label": "Trade-offs" }, ...o.tradeoffs.map((t) => h("li", null, t))) : null,
    citeList("Supports", o.supports, "supports"),
    citeList("Dissent", o.dissent, "dissent"),
    o.supports.length + o.dissent.length === 0 ? h("p", { class: "muted small" }, "No cited evidence for this option.") : null,
    h("footer", { class: "card-foot" }, button),
  );
}

function renderMatrix(m: PickerModel): HTMLElement | null {
  const options = m.payload.options;
  const cited = m.payload.citations.filter((c) => options.some((o) => o.supports.includes(c.id) || o.dissent.includes(c.id)));
  if (cited.length === 0) return null;
  const table = h(
    "table",
    { class: "matrix", id: "matrix" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { scope: "col", class: "src" }, "Source"),
        ...options.map((o, i) => h("th", { scope: "col", title: o.title, class: m.payload.recommendation.option_id === o.id ? "rec" : undefined }, letter(i))),
      ),
    ),
    h(
      "tbody",
      null,
      ...cited.map((c) =>
        h(
          "tr",
          null,
          h("th", { scope: "row", class: "src" }, citeButton(c.id, { compact: true })),
          ...options.map((o) => {
            const s = o.supports.includes(c.id);
            const d = o.dissent.includes(c.id);
            const label = s ? `supports ${o.title}` : d ? `dissents from ${o.title}` : `not cited for ${o.title}`;
            return h("td", { class: s ? "yes" : d ? "no" : "none", title: label, "aria-label": label }, s ? "✓" : d ? "✗" : "·");
          }),
        ),
      ),
    ),
  );
  return h(
    "section",
    { class: "matrix-section", "aria-label": "Evidence matrix" },
    h("h2", null, "Evidence matrix"),
    h("p", { class: "legend muted" }, h("span", { class: "yes" }, "✓"), " supports  ", h("span", { class: "no" }, "✗"), " dissent  ", ...options.map((o, i) => `${letter(i)} = ${o.title}  `)),
    h("div", { class: "matrix-wrap" }, table),
  );
}

/** The Critic's objections, blocking first, each with its citations; text nodes only, in the danger colour. */
function renderObjections(m: PickerModel): HTMLElement | null {
  const objections = m.payload.objections ?? [];
  if (!objections.length) return null;
  return h(
    "section",
    { class: "objections", id: "objections", "aria-label": "Objections" },
    h("h2", null, `Objections (${objections.length})`),
    h(
      "ul",
      null,
      ...objections.map((o) =>
        h(
          "li",
          { class: `objection ${o.severity}` },
          h("span", { class: "pill bad small severity" }, o.severity),
          h("span", { class: "objection-text" }, o.text),
          o.citations.length ? h("div", { class: "objection-cites" }, ...o.citations.map((id) => citeButton(id, { compact: true }))) : null,
        ),
      ),
    ),
  );
}

function renderCitations(m: PickerModel): HTMLElement {
  const list = h(
    "ol",
    { class: "citations", id: "citations" },
    ...m.payload.citations.map((c) =>
      h(
        "li",
        { class: c.resolution_failed ? "unresolved" : undefined },
        citeButton(c.id, { stacked: true }),
        c.resolution_failed ? h("span", { class: "pill bad small" }, "no longer resolves") : null,
        c.fetched_at ? h("span", { class: "muted small" }, ` fetched ${c.fetched_at}`) : null,
        c.excerpt ? h("blockquote", { class: "excerpt" }, c.excerpt.length > 600 ? `${c.excerpt.slice(0, 600)}…` : c.excerpt) : null,
      ),
    ),
  );
  const section = h("vscode-collapsible", { class: "citations-section", heading: `Citations (${m.payload.citations.length})`, open: true }, list);
  return section;
}

function changedCitationList(label: string, sign: string, list: ChangesModel["citationsAdded"]): HTMLElement | null {
  if (!list.length) return null;
  return h(
    "div",
    { class: "changes-list" },
    h("div", { class: "list-label" }, `${label} (${list.length})`),
    h("ul", null, ...list.map((c) => h("li", null, `${sign} `, h("code", null, c.location), c.title ? ` — ${c.title}` : null, h("span", { class: "muted small" }, ` · ${c.source}`)))),
  );
}

/** The comparison with the latest earlier deliberation of this question. Text only. */
function renderChanges(m: PickerModel): HTMLElement | null {
  const c = changes;
  if (!c || c.receiptId !== m.receiptId) return null;
  const since = new Date(c.since);
  const when = isNaN(since.getTime()) ? c.since : since.toLocaleString();
  const r = c.recommendation;
  const conf = r.confidenceBefore !== r.confidenceAfter ? ` (confidence ${r.confidenceBefore} → ${r.confidenceAfter})` : ` (${r.confidenceAfter} confidence)`;
  const options = [...c.optionsAdded.map((t) => `+ ${t}`), ...c.optionsRemoved.map((t) => `− ${t}`), ...c.optionsRenamed.map((x) => `${x.before} → ${x.after}`)];
  const nothing = !r.changed && r.confidenceBefore === r.confidenceAfter && !c.citationsAdded.length && !c.citationsRemoved.length && !options.length;
  return h(
    "vscode-collapsible",
    { class: "changes", id: "changes", heading: `What changed since ${when}`, open: true },
    h(
      "div",
      { class: "changes-body" },
      h("p", { id: "changes-recommendation" }, r.changed ? `Recommendation: “${r.before}” → “${r.after}”${conf}` : `Recommendation unchanged: “${r.after}”${conf}`),
      changedCitationList("Citations added", "+", c.citationsAdded),
      changedCitationList("Citations removed", "−", c.citationsRemoved),
      options.length ? h("div", { class: "changes-list" }, h("div", { class: "list-label" }, "Options"), h("ul", null, ...options.map((t) => h("li", null, t)))) : null,
      c.movedBy.length ? h("div", { class: "changes-list", id: "changes-moved-by" }, h("div", { class: "list-label" }, "What moved it"), h("ul", null, ...c.movedBy.map((t) => h("li", null, t)))) : null,
      nothing ? h("p", { class: "muted" }, "Nothing changed: the same evidence, options and recommendation.") : null,
      h("p", { class: "muted small" }, "Compared with receipt ", h("code", null, c.earlierReceiptId)),
    ),
  );
}

function renderToolbar(m: PickerModel): HTMLElement {
  const others = m.payload.options.filter((o) => o.id !== m.payload.recommendation.option_id);
  return h(
    "div",
    { class: "toolbar", role: "toolbar", "aria-label": "Decision actions" },
    h(
      "vscode-button",
      { secondary: true, id: "copy-md", onclick: onClick("copyMarkdown", {}) },
      "Copy as Markdown",
    ),
    others.length
      ? h(
          "vscode-button",
          {
            secondary: true,
            id: "override-toggle",
            "aria-expanded": String(overrideOpen),
            onclick: (() => {
              overrideOpen = !overrideOpen;
              render();
              if (overrideOpen) (document.getElementById("override-reason") as HTMLElement | null)?.focus();
            }) as EventListener,
          },
          "Override with reason…",
        )
      : null,
    m.operatorPick ? h("vscode-button", { secondary: true, id: "export-adr", onclick: onClick("exportAdr", {}) }, "Export as ADR…") : null,
    h(
      "vscode-button",
      { secondary: true, id: "open-json", onclick: onClick("openReceiptFile", {}) },
      "Open receipt file",
    ),
  );
}

function renderOverride(m: PickerModel): HTMLElement | null {
  if (!overrideOpen) return null;
  const others = m.payload.options.filter((o) => o.id !== m.payload.recommendation.option_id);
  const select = h(
    "vscode-single-select",
    { id: "override-option", "aria-label": "Option to pick instead" },
    ...others.map((o) => h("vscode-option", { value: o.id }, o.title)),
  ) as HTMLElement & { value: string };
  const reason = h("vscode-textarea", { id: "override-reason", rows: 3, placeholder: "Why this option over the recommendation? (recorded in the signed receipt)", "aria-label": "Reason" }) as HTMLElement & { value: string };
  const error = h("p", { class: "form-error", role: "alert" });
  const submit = h(
    "vscode-button",
    {
      id: "override-submit",
      onclick: (async (e: Event) => {
        const text = reason.value.trim();
        if (!text) {
          error.textContent = "Give a reason: an override without one teaches nothing.";
          reason.focus();
          return;
        }
        const optionId = select.value || others[0]!.id;
        overrideOpen = false; // the host re-renders with the pick before it answers
        if (!(await run(e.currentTarget as HTMLElement, "pick", { optionId, reason: text }))) overrideOpen = true; // the form is still on screen
      }) as EventListener,
    },
    "Record override",
  );
  const cancel = h(
    "vscode-button",
    {
      secondary: true,
      onclick: (() => {
        overrideOpen = false;
        render();
      }) as EventListener,
    },
    "Cancel",
  );
  return h(
    "section",
    { class: "override", id: "override", "aria-label": "Override with reason" },
    h("label", { class: "field-label", for: "override-option" }, "Pick instead"),
    select,
    h("label", { class: "field-label", for: "override-reason" }, "Reason"),
    reason,
    error,
    h("div", { class: "row" }, submit, cancel),
  );
}

function render(): void {
  const m = model;
  if (!m) return;
  // Keep focus on re-render (keyboard users): remember the focused control by a stable selector.
  const active = document.activeElement as HTMLElement | null;
  const focusKey = active?.id ? `#${active.id}` : active?.dataset.optionId ? `vscode-button.pick[data-option-id="${CSS.escape(active.dataset.optionId)}"]` : active?.dataset.citationId ? `[data-citation-id="${CSS.escape(active.dataset.citationId)}"]` : undefined;

  const options = h("section", { class: "options", "aria-label": "Options" }, h("h2", null, `Options (${m.payload.options.length})`), h("div", { class: "cards" }, ...m.payload.options.map((o, i) => renderOption(m, o, i))));
  app.replaceChildren(
    renderHeader(m),
    renderStages(m),
    ...[renderPickBanner(m), renderRecommendation(m), renderChanges(m), renderToolbar(m), renderOverride(m), options, renderObjections(m), renderMatrix(m), renderCitations(m)].filter((x): x is HTMLElement => !!x),
    h(
      "footer",
      { class: "foot muted" },
      "Receipt ",
      h("code", null, m.receiptPath || m.receiptId),
      " · key ",
      h("code", null, m.signature.keyId),
    ),
    h("div", { id: "toast", class: "toast", role: "status", "aria-live": "polite" }),
  );
  app.removeAttribute("aria-busy");
  if (focusKey) (document.querySelector(focusKey) as HTMLElement | null)?.focus();
}

vscode.postMessage({ type: "ready", protocol: PROTOCOL_VERSION });
