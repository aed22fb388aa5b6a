// `deliberate adr <receipt_id> [--format madr|nygard|log4brains] [--dry-run] [--supersede|--no-supersede]
// [--title TEXT] [--repo DIR]`: exports a picked receipt as an ADR in the repository's own format and records the
// export in the receipt (re-signed). `--dry-run` runs every check the export runs (so it refuses what the export
// would refuse, with the same line and exit code), then prints the files and a unified diff and writes nothing.
// A receipt whose pick was already exported is not exported twice: both name the first ADR and exit 0.
// Exit codes: 0 written, previewed or already exported; 1 the receipt failed verification, could not be re-signed,
// or a record to supersede changed since the receipt; 2 bad input.
import { hostname, userInfo } from "node:os";
import {
  ADR_FORMATS,
  AdrAlreadyExportedError,
  AdrExportError,
  AdrExportRefusedError,
  checkAdrPlan,
  exportAdr,
  planAdrExport,
  unifiedDiff,
  type AdrExportPlan,
  type AdrFormat,
} from "../core/adrExport";
import { loadOrCreateKeyFile } from "../core/receipts/signing";
import { DEFAULT_RECEIPTS_DIR, LockTimeoutError, PickRefusedError } from "../core/receipts/store";
import { hasControlChars, terminalSafeLine } from "../core/sanitize";
import { oneLine } from "../core/text";
import { UsageError, parseOptions, repoOption } from "./common";

export const ADR_USAGE = "deliberate adr <receipt_id> [--format madr|nygard|log4brains] [--dry-run] [--supersede|--no-supersede] [--title TEXT] [--repo DIR]";

export interface AdrIo {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
}

const FORMAT_NAMES: Record<AdrFormat, string> = { madr: "MADR", nygard: "Nygard (adr-tools)", log4brains: "log4brains" };

function decisionMaker(env: NodeJS.ProcessEnv): string {
  const named = env.DELIBERATIVE_SIGNER_NAME?.trim();
  if (named) return named;
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return "the operator";
  }
}

function describePlan(plan: AdrExportPlan, verb: string): string[] {
  const how = `${FORMAT_NAMES[plan.format]}${plan.format === "madr" ? (plan.layout.frontMatter ? " 4, front matter" : ", status bullets") : ""}`;
  const where = plan.layout.source === "default" ? `no ADRs yet: the default ${plan.layout.dir}/` : `${plan.layout.dir || "."}/ (${plan.layout.source})`;
  const lines = [`${verb} ${plan.path}  [${how}; ${where}]`];
  if (plan.status === "proposed") {
    lines.push(`note: an agent (${terminalSafeLine(plan.agent ?? "unnamed")}) made this pick, so the ADR is proposed, not accepted, and supersedes nothing; a person's pick exports it as accepted`);
  }
  for (const s of plan.supersedes) lines.push(`${verb === "wrote" ? "superseded" : "would supersede"} ${s.path} (the pick goes against this accepted ADR)`);
  const kept = plan.candidates.filter((c) => !plan.supersedes.some((s) => s.path === c.path));
  const why = plan.status === "proposed" ? "an agent's pick supersedes nothing" : "--no-supersede";
  for (const c of kept) lines.push(`note: the pick goes against the accepted ${c.path}; left as it is (${why})`);
  return lines.map(terminalSafeLine);
}

export async function adrCommand(argv: string[], io: AdrIo): Promise<number> {
  const options = {
    repo: { type: "string" },
    format: { type: "string" },
    "dry-run": { type: "boolean" },
    supersede: { type: "boolean" },
    "no-supersede": { type: "boolean" },
    title: { type: "string" },
  } as const;
  const { values, positionals } = parseOptions(argv, options, { usage: ADR_USAGE });
  if (positionals.length !== 1) throw new UsageError(`adr needs one <receipt_id> (usage: ${ADR_USAGE})`);
  const format = values.format as string | undefined;
  if (format !== undefined && !ADR_FORMATS.includes(format as AdrFormat)) throw new UsageError(`unknown --format ${format} (madr, nygard or log4brains)`);
  if (values.supersede && values["no-supersede"]) throw new UsageError("--supersede and --no-supersede do not go together");
  const title = values.title as string | undefined;
  if (title !== undefined && (!title.trim() || title.length > 200 || hasControlChars(title))) throw new UsageError("--title: 1-200 characters, no control characters");
  const repo = repoOption(values.repo as string | undefined);
  const key = loadOrCreateKeyFile(undefined);
  const opts = {
    ownPublicKeyPem: key.publicKeyPem,
    receiptsDir: DEFAULT_RECEIPTS_DIR,
    ...(format ? { format: format as AdrFormat } : {}),
    supersede: !values["no-supersede"],
    ...(title ? { title } : {}),
    decisionMaker: decisionMaker(io.env),
  };
  const [receiptId] = positionals;
  try {
    if (values["dry-run"]) {
      const plan = await planAdrExport(repo, receiptId, opts);
      // What applying checks (every file still as planned and writable, the folder usable, the name free).
      await checkAdrPlan(repo, plan);
      for (const line of describePlan(plan, "would write")) io.out(line);
      for (const f of plan.files) io.out(`\n${unifiedDiff(f.path, f.before, f.after)}`);
      io.out("\n(dry run: nothing was written)");
      return 0;
    }
    // Serialised per receipt, and recorded before the lock is let go: a second export finds the first.
    const { plan } = await exportAdr(repo, receiptId, { ...opts, record: key });
    for (const line of describePlan(plan, "wrote")) io.out(line);
    io.out(`receipt ${receiptId} re-signed with the export recorded`);
    return 0;
  } catch (err) {
    if (err instanceof AdrAlreadyExportedError) {
      io.out(terminalSafeLine(err.message));
      return 0;
    }
    if (err instanceof AdrExportError) {
      io.err(`deliberate: ${terminalSafeLine(err.message)}`);
      return 2;
    }
    if (err instanceof AdrExportRefusedError || err instanceof PickRefusedError || err instanceof LockTimeoutError) {
      io.err(`deliberate: ${terminalSafeLine(err.message)}`);
      return 1;
    }
    throw new UsageError(oneLine(err));
  }
}
