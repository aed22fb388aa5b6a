// What the CLI's commands share: bad input (one line on stderr, exit 2), the --repo check, argument parsing, and
// Ctrl-C as core's cancellation (exit 130).
import { existsSync, statSync } from "node:fs";
import { parse, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cancellationController } from "../core/cancel";
import { oneLine } from "../core/text";

/** Bad input: reported as one line, exit code 2, nothing written. */
export class UsageError extends Error {}

/** --repo (default: the current directory), which must be an existing directory. */
export function repoOption(value: string | undefined): string {
  const repo = resolve(value ?? ".");
  if (!existsSync(repo)) throw new UsageError(`repository path does not exist: ${repo}`);
  if (!statSync(repo).isDirectory()) throw new UsageError(`repository path is not a directory: ${repo}`);
  // As the MCP server: the whole file system is no repository (discovery would walk all of it and write /.deliberations).
  if (repo === parse(repo).root) throw new UsageError(`refusing the file-system root ${repo} as a repository: pass --repo DIR`);
  return repo;
}

export type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** Strict option parsing; an unknown or malformed option is a UsageError (`usage` is appended when given). */
export function parseOptions(args: string[], options: OptionSpec, opts: { positionals?: boolean; usage?: string } = {}): { values: OptionValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: opts.positionals ?? true, strict: true });
    return { values: values as OptionValues, positionals };
  } catch (err) {
    throw new UsageError(opts.usage ? `${oneLine(err)} (usage: ${opts.usage})` : oneLine(err));
  }
}

/** Runs `work` with a signal that Ctrl-C (SIGINT) cancels with core's CancellationError. */
export async function cancelOnSigint<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal, cancel } = cancellationController();
  const onSigint = () => cancel();
  process.once("SIGINT", onSigint);
  try {
    return await work(signal);
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
