// `deliberate check` in a bundle of its own (dist/cliCheck.js, which dist/cli.js runs for `check`): the guard runs on
// every commit in a pre-commit hook and in CI, and needs none of the deliberation pipeline (model clients, HTML
// extraction, search indexes) that the full CLI bundle initialises when it loads, about a third of a warm check's
// CPU. Same options, output and exit codes as `deliberate check` through main.ts (check.ts does the work for both).
import { terminalSafe } from "../core/sanitize";
import { checkCommand, type CheckIo } from "./check";
import { UsageError } from "./common";
import { exitCodeForError, runAsProcess } from "./processEntry";

/** `deliberate check ARGS`, as main.ts runs it: bad input exit 2, Ctrl-C 130, anything else 1 with one line. */
export async function checkMain(argv: string[], rawIo: CheckIo): Promise<number> {
  const io: CheckIo = { ...rawIo, out: (s) => rawIo.out(terminalSafe(s)), err: (s) => rawIo.err(terminalSafe(s)) };
  try {
    return await checkCommand(argv, io);
  } catch (err) {
    // main.ts also maps the pipeline's and the receipt store's input errors to 2; the guard reads receipts too.
    return exitCodeForError(err, io.err, (e) => e instanceof UsageError || (e instanceof Error && (e.name === "ReceiptsDirError" || e.name === "ReceiptInputError")));
  }
}

/** The process entry for `deliberate check …` (argv[2] is "check"). */
export function runCli(): void {
  runAsProcess((io) => checkMain(process.argv.slice(3), io));
}
