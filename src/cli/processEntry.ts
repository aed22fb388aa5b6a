// What every CLI bundle's process entry does around its command (dist/cli.js and dist/cliCheck.js alike).
import { z } from "zod";
import { isCancellation } from "../core/cancel";
import { terminalSafeLine } from "../core/sanitize";
import { oneLine } from "../core/text";

export interface ProcessIo {
  out: (s: string) => void;
  err: (s: string) => void;
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

/** Runs `command` as this process: its exit code becomes the process's; an escaped error is one line and exit 1. */
export function runAsProcess(command: (io: ProcessIo) => Promise<number>): void {
  // One short-lived run: zod's compiled fast paths cost more to build than they save here (~10 ms per run).
  z.config({ jitless: true });
  // `deliberate list | head`: a reader that stops early is normal use, not a crash with a stack trace.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
  const io: ProcessIo = { out: (s) => process.stdout.write(s + "\n"), err: (s) => process.stderr.write(s + "\n"), stderrIsTTY: !!process.stderr.isTTY, env: process.env };
  command(io).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`deliberate: ${terminalSafeLine(oneLine(err))}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * The exit code for an error a command threw, with its one line on stderr: bad input 2 (`isInputError` says which
 * errors are the user's), Ctrl-C 130, anything else 1.
 */
export function exitCodeForError(err: unknown, writeErr: (s: string) => void, isInputError: (err: unknown) => boolean): number {
  if (isInputError(err)) {
    writeErr(`deliberate: ${terminalSafeLine((err as Error).message)}`);
    return 2;
  }
  if (isCancellation(err)) {
    writeErr("deliberate: cancelled");
    return 130;
  }
  writeErr(`deliberate: ${terminalSafeLine(oneLine(err))}`);
  return 1;
}
