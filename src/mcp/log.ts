// The MCP server's diagnostics. stdout carries only JSON-RPC, so every log line goes to stderr, one line each,
// through the terminal sanitiser: text from the repository or a model never reaches the client's log raw.
import { terminalSafeLine } from "../core/sanitize";

export type McpLog = (line: string) => void;

export function stderrLog(write: (s: string) => void = (s) => process.stderr.write(s)): McpLog {
  return (line) => write(`deliberate mcp: ${terminalSafeLine(line).slice(0, 2000)}\n`);
}

/**
 * Anything a dependency prints with console.log/info/debug would corrupt the JSON-RPC stream on stdout: it goes to
 * the log instead.
 */
export function keepStdoutForProtocol(log: McpLog): void {
  const toLog = (...args: unknown[]) => log(args.map((a) => (typeof a === "string" ? a : String(a))).join(" "));
  console.log = toLog;
  console.info = toLog;
  console.debug = toLog;
}
