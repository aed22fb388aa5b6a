// The MCP server as a raw process for tests that need what an SDK client hides: JSON-RPC lines in, replies collected
// by id, every byte written on stdout, its stderr, CPU time and exit.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CLI } from "./cli";

export interface Reply {
  id?: string | number | null;
  result?: CallToolResult & Record<string, unknown>;
  error?: { code: number; message: string };
  method?: string;
}

/** Polls `check` every 20 ms until it holds, or throws `what` after `ms`. */
export async function waitFor(check: () => boolean, ms: number, what = "timed out waiting"): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(what);
    await new Promise((done) => setTimeout(done, 20));
  }
}

export class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly replies: Reply[] = [];
  readonly stdout: Buffer[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  private rest = "";
  private nextId = 1000;

  constructor(repo: string, env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [CLI, "mcp", "--repo", repo], { env });
    this.child.stdout.on("data", (d: Buffer) => {
      this.stdout.push(d);
      const lines = (this.rest + d.toString("utf8")).split("\n");
      this.rest = lines.pop() ?? "";
      for (const l of lines) if (l.trim()) this.replies.push(JSON.parse(l) as Reply);
    });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString("utf8")));
    this.exited = new Promise((done) => this.child.on("close", (code) => done(code)));
  }

  static async started(repo: string, env: NodeJS.ProcessEnv): Promise<RawServer> {
    const s = new RawServer(repo, env);
    await s.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    s.line(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return s;
  }

  line(text: string): void {
    this.child.stdin.write(text + "\n");
  }

  /** Sends a request and returns its id (use `reply` to wait for the answer). */
  send(method: string, params: Record<string, unknown>, id: string | number = this.nextId++): string | number {
    this.line(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    return id;
  }

  answered(id: string | number | null): boolean {
    return this.replies.some((r) => r.id === id && r.method === undefined);
  }

  async reply(id: string | number | null, ms = 30_000): Promise<Reply> {
    await waitFor(() => this.answered(id), ms, `no reply to ${String(id)}; stderr: ${this.stderr.slice(-500)}`);
    return this.replies.find((r) => r.id === id && r.method === undefined)!;
  }

  request(method: string, params: Record<string, unknown>, ms?: number): Promise<Reply> {
    return this.reply(this.send(method, params), ms);
  }

  tool(name: string, args: Record<string, unknown>, ms?: number): Promise<Reply> {
    return this.request("tools/call", { name, arguments: args }, ms);
  }

  /** User plus system CPU seconds of the whole process (every thread), from /proc. */
  cpuSeconds(): number {
    const stat = readFileSync(`/proc/${this.child.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }
}
