// Decisions that live in another folder of a multi-root workspace: an "orders-service" folder asks, in a
// TODO(decide) comment, whether to store orders in MongoDB or PostgreSQL; an "architecture" folder (its own git
// repository) holds the ADR that decides it. The workspace file lists both folders. With the default
// `shareDecisionsAcrossFolders`, the picker cites the architecture folder's ADR under the source's name
// (`architecture:decisions/0007-….md:12–20`), a click opens that record, and a pick writes the signed receipt into the
// service folder's .deliberations/ (never into the architecture folder). Screenshot: multi-root.png.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { verifyReceiptSignature } from "../../../src/core/receipts/signing";
import { createGitRepo } from "../../helpers/gitRepo";
import { ARCH_ADR_1, ARCH_ADR_7, ARCH_ADR_7_PATH } from "../../fixtures/sourceRepos";
import {
  assert,
  goToLine,
  log,
  need,
  openFile,
  receiptFiles,
  runCommand,
  screenshot,
  waitForWorkbench,
  waitUntil,
  workbench,
  type E2EContext,
  type Step,
} from "../workbench";

const MULTI_Q = "should the orders service store orders in MongoDB or PostgreSQL?";
const SOURCE_NAME = "architecture";

interface MultiRoot {
  service: string;
  architecture: string;
  workspaceFile: string;
  todoLine: number;
  /** The option the picker recommended. */
  recommended?: string;
}

let multi: MultiRoot | undefined;
const multiRoot = () => need(multi, "the multi-root workspace");

type ReceiptOnDisk = Record<string, unknown> & {
  question: string;
  operator_pick?: { option_id: string } | null;
  decision_sources?: { name: string; kind: string; spec: string; commit?: string }[];
  payload: { citations: { path_or_url: string; decision_source?: { name: string; commit?: string } }[] };
};

const ORDERS_TS = `// Orders: what the storefronts send, validated and stored.
export interface Order {
  id: string;
  lines: { sku: string; quantity: number }[];
}

// TODO(decide): ${MULTI_Q}
export function saveOrder(order: Order): Order {
  return order;
}
`;

function buildWorkspace(ctx: E2EContext): void {
  const root = join(ctx.dirs.tmp, "platform");
  const service = join(root, "orders-service");
  const architecture = join(root, SOURCE_NAME);
  mkdirSync(service, { recursive: true });
  mkdirSync(architecture, { recursive: true });
  createGitRepo([{ message: "orders service", files: { "README.md": "# Orders service\n\nTakes orders from the storefronts and stores them.\n", "src/orders.ts": ORDERS_TS } }], service);
  createGitRepo(
    [
      { message: "adr 1", files: { "README.md": "# Architecture\n\nPlatform decisions every service follows.\n", "decisions/0001-record-architecture-decisions.md": ARCH_ADR_1 } },
      { message: "adr 7", files: { [ARCH_ADR_7_PATH]: ARCH_ADR_7 } },
    ],
    architecture,
  );
  const workspaceFile = join(root, "platform.code-workspace");
  // The earlier model steps left a fake model endpoint in the user settings; this workspace answers by the rules.
  writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: "orders-service" }, { path: SOURCE_NAME }], settings: { "deliberativeSearch.model.provider": "none" } }, null, 2));
  const todoLine = ORDERS_TS.split("\n").findIndex((l) => l.includes("TODO(decide)")) + 1;
  multi = { service, architecture, workspaceFile, todoLine };
}

async function openWorkspace(ctx: E2EContext): Promise<void> {
  const page = need(ctx.page, "the browser page");
  const url = `http://127.0.0.1:${need(ctx.port, "code-server's port")}/?workspace=${encodeURIComponent(multiRoot().workspaceFile)}`;
  // Now and then code-server shows a workspace before its folders resolve ("No folder opened" under the workspace's
  // own title): the page is loaded once more before the step fails.
  for (let attempt = 1; ; attempt++) {
    try {
      if (attempt === 1) await page.goto(url);
      else await page.reload();
      // A new workspace opens with the explorer showing (no toggling: a click on an open view closes it).
      await waitForWorkbench(page, { explorer: true });
      // Both folders are roots of the explorer.
      for (const name of ["orders-service", SOURCE_NAME]) {
        await page.locator(".explorer-folders-view .monaco-list-row", { hasText: new RegExp(`^${name}`, "i") }).first().waitFor({ state: "visible", timeout: 30_000 });
      }
      return;
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}

async function askFromService(ctx: E2EContext): Promise<void> {
  const { page, frame } = workbench(ctx);
  const { todoLine } = multiRoot();
  // Quick open's file search starts slowly in a freshly opened workspace (the extensions still activating): retry.
  for (let attempt = 1; ; attempt++) {
    try {
      await openFile(page, "orders.ts");
      break;
    } catch (err) {
      if (attempt >= 4) throw err;
      await page.keyboard.press("Escape");
      await page.waitForTimeout(2000);
    }
  }
  await page.locator(".monaco-editor .view-lines", { hasText: "TODO(decide)" }).first().waitFor({ timeout: 15_000 });
  await goToLine(page, todoLine);
  await runCommand(page, "Deliberative Search: Deliberate on Selection");
  await frame.locator("#question", { hasText: MULTI_Q }).waitFor({ state: "visible", timeout: 60_000 });
  await frame.locator("#recommendation").waitFor({ state: "visible", timeout: 30_000 });
}

/** The source citation's location, e.g. `architecture:decisions/0007-use-postgresql-for-service-persistence.md:12–20`. */
const SOURCE_LOC = new RegExp(`^${SOURCE_NAME}:${ARCH_ADR_7_PATH.replace(/[.]/g, "\\.")}:\\d+(?:–\\d+)?$`);

/** The source stages of the newest receipt in the service folder: why a source did or did not answer. */
function sourceStages(): string {
  const newest = receiptFiles(multiRoot().service).sort().pop();
  if (!newest) return "no receipt on disk";
  const stages = (JSON.parse(readFileSync(newest, "utf8")) as { stages?: Record<string, { status: string; ms?: number; reason?: string }> }).stages ?? {};
  const shown = Object.entries(stages).filter(([k]) => k.includes("source:") || k === "internal:docs" || k === "discovery");
  return shown.map(([k, v]) => `${k} ${v.status}${v.ms !== undefined ? ` ${v.ms} ms` : ""}${v.reason ? ` (${v.reason})` : ""}`).join("; ") || "no source stage in the receipt";
}

async function citesArchitecture(ctx: E2EContext): Promise<void> {
  const { page, frame } = workbench(ctx);
  const rec = (await frame.locator("#recommendation").textContent()) ?? "";
  assert(/Recommended/i.test(rec) && /PostgreSQL/.test(rec), `recommendation was ${JSON.stringify(rec.slice(0, 200))}; stages: ${sourceStages()}`);
  log(`     ${sourceStages()}`);
  const recCard = frame.locator("article.card.recommended");
  const id = await recCard.getAttribute("data-option-id");
  assert(id, "no recommended card");
  const locs = (await recCard.locator(".supports .cite .cite-loc").allTextContents()).map((t) => t.trim());
  assert(locs.some((l) => SOURCE_LOC.test(l)), `the recommended option does not cite ${SOURCE_NAME}:${ARCH_ADR_7_PATH}; it cites ${JSON.stringify(locs)}`);
  // The recommendation names the record and the source it came from ("ADR 7 … from architecture").
  assert(new RegExp(`from ${SOURCE_NAME}\\b`).test(rec), `the recommendation does not name the source: ${rec.slice(0, 300)}`);
  multiRoot().recommended = id;
  log(`     recommended ${id}, cited ${locs.find((l) => SOURCE_LOC.test(l))}`);
  // The shot shows the recommended card with its source citation.
  await recCard.locator(".supports").scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  await screenshot(page, "multi-root.png");
  await frame.locator("body").evaluate((b) => b.ownerDocument.defaultView?.scrollTo(0, 0));
}

async function openSourceCitation(ctx: E2EContext): Promise<void> {
  const { page, frame } = workbench(ctx);
  const cite = frame.locator("article.card.recommended .supports .cite").filter({ has: frame.locator(".cite-loc", { hasText: SOURCE_LOC }) }).first();
  await cite.click();
  const fileName = ARCH_ADR_7_PATH.split("/").pop()!;
  await page.locator(".tabs-container .tab", { hasText: fileName }).first().waitFor({ state: "visible", timeout: 15_000 });
  const visible = (await page.locator(".editor-group-container .monaco-editor .view-lines", { hasText: "Use PostgreSQL for service persistence" }).count()) > 0;
  assert(visible, "the architecture record's text is not shown in an editor");
}

async function pickAndCheckReceipt(ctx: E2EContext): Promise<void> {
  const { frame } = workbench(ctx);
  const { service, architecture, recommended } = multiRoot();
  await frame.locator(`article.card[data-option-id="${need(recommended, "the recommended option")}"] vscode-button.pick`).click();
  await frame.locator("#decided").waitFor({ state: "visible", timeout: 15_000 });
  await waitUntil("the receipt in the service folder", () => receiptFiles(service).some((f) => (JSON.parse(readFileSync(f, "utf8")) as ReceiptOnDisk).operator_pick), 15_000);
  const files = receiptFiles(service);
  assert(files.length === 1, `expected one receipt in orders-service/.deliberations, found ${files.length}`);
  assert(!existsSync(join(architecture, ".deliberations")), "a receipt was written into the architecture folder");
  const raw = JSON.parse(readFileSync(files[0]!, "utf8")) as ReceiptOnDisk;
  assert(raw.question === MULTI_Q, `receipt question ${raw.question}`);
  assert(raw.operator_pick?.option_id === recommended, `operator_pick: ${JSON.stringify(raw.operator_pick)}`);
  const source = raw.decision_sources?.find((s) => s.name === SOURCE_NAME);
  assert(source && source.kind === "folder" && source.spec === architecture && /^[0-9a-f]{40}$/.test(source.commit ?? ""), `decision_sources: ${JSON.stringify(raw.decision_sources)}`);
  const cited = raw.payload.citations.find((c) => c.path_or_url === `${SOURCE_NAME}:${ARCH_ADR_7_PATH}`);
  assert(cited?.decision_source?.name === SOURCE_NAME && cited.decision_source.commit === source.commit, `the receipt's citation of the source: ${JSON.stringify(cited)}`);
  const sig = verifyReceiptSignature(raw);
  assert(sig.ok, `signature: ${sig.reason}`);
  log(`     ${files[0]} signature valid`);
}

export const multiRootSteps: Step[] = [
  { name: "multi-root: build an orders-service repo and an architecture repo, and a workspace file listing both", run: async (ctx) => buildWorkspace(ctx) },
  { name: "multi-root: open the workspace file; both folders show in the explorer", run: openWorkspace },
  { name: "multi-root: deliberate on the TODO(decide) comment in orders-service", run: askFromService },
  { name: "multi-root: the picker recommends PostgreSQL and cites the architecture folder's ADR by the source's name", run: citesArchitecture },
  { name: "multi-root: clicking the source citation opens the architecture record", run: openSourceCitation },
  { name: "multi-root: a pick writes the signed receipt into orders-service/.deliberations, naming the source", run: pickAndCheckReceipt },
];
