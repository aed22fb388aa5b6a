// The MCP round trip (issue 13): a `deliberate` tool call to the built server (`node dist/cli.js mcp`, driven by the
// SDK's own Client over stdio) against the shipped CLI's own time for the same question, on the sample repository.
// Target: the tool call answers within 1.5× the CLI's time.
//
//   node --import tsx bench/mcp.ts [rounds]        on its own (npm run build first)
//
// Both sides are offline and cold: the CLI runs with --no-cache (one fresh process per question, as an agent
// shelling out would), and the server's turn cache is cleared before each call. The warm rows repeat the question
// with the turn cache on. Spawning the server and its initialize + tools/list handshake are reported on their own.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createSampleRepo } from "../test/fixtures/sampleRepo";
import { dist, round, type Dist } from "./stats";

export const MCP_QUESTIONS = [
  "Should we store orders in MongoDB or PostgreSQL?",
  "Should we adopt winston for logging?",
  "Redux or Zustand for the cart state?",
];

export interface McpBenchResult {
  repo: string;
  rounds: number;
  /** Spawn + initialize + tools/list. */
  startMs: number;
  /** The server's first deliberate call (module initialisation, JIT). */
  firstCallMs: number;
  cliCold: Dist;
  mcpCold: Dist;
  cliWarm: Dist;
  mcpWarm: Dist;
  /** mcpCold.p50 / cliCold.p50: the target is ≤ 1.5. */
  ratio: number;
  error?: string;
}

function cliOnce(cli: string, repo: string, question: string, env: NodeJS.ProcessEnv, noCache: boolean): number {
  const t = performance.now();
  execFileSync(process.execPath, [cli, question, "--repo", repo, "--offline", "--json", ...(noCache ? ["--no-cache"] : [])], { env, stdio: ["ignore", "ignore", "pipe"], timeout: 120_000 });
  return performance.now() - t;
}

async function toolCall(client: Client, question: string): Promise<number> {
  const t = performance.now();
  const r = await client.callTool({ name: "deliberate", arguments: { question, offline: true } });
  if (r.isError) throw new Error(`deliberate failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  return performance.now() - t;
}

export async function measureMcp(root: string, log: (m: string) => void = () => undefined, rounds = 3): Promise<McpBenchResult> {
  const cli = join(root, "dist", "cli.js");
  const repo = createSampleRepo();
  const keyDir = mkdtempSync(join(os.tmpdir(), "delib-bench-mcp-key-"));
  const env = { ...process.env, DELIBERATIVE_KEY_DIR: keyDir, DELIBERATIVE_NO_BACKGROUND_INDEX: "1" };
  const cache = join(repo, ".deliberations", "cache");
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--repo", repo, "--offline"], env: env as Record<string, string>, stderr: "ignore" });
  const client = new Client({ name: "deliberative-bench", version: "1.0.0" });
  try {
    await client.connect(transport);
    await client.listTools();
    const startMs = performance.now() - t0;
    const firstCallMs = await toolCall(client, "Should we use Kafka or RabbitMQ for order events?");
    const s = { cliCold: [] as number[], mcpCold: [] as number[], cliWarm: [] as number[], mcpWarm: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const q of MCP_QUESTIONS) {
        s.cliCold.push(cliOnce(cli, repo, q, env, true));
        rmSync(cache, { recursive: true, force: true });
        s.mcpCold.push(await toolCall(client, q));
        s.mcpWarm.push(await toolCall(client, q));
        s.cliWarm.push(cliOnce(cli, repo, q, env, false));
      }
      log(`[mcp] round ${r + 1}/${rounds}`);
    }
    const result = { cliCold: dist(s.cliCold), mcpCold: dist(s.mcpCold), cliWarm: dist(s.cliWarm), mcpWarm: dist(s.mcpWarm) };
    return { repo, rounds, startMs: round(startMs), firstCallMs: round(firstCallMs), ...result, ratio: round(result.mcpCold.p50 / result.cliCold.p50, 2) };
  } finally {
    await client.close();
    rmSync(keyDir, { recursive: true, force: true });
    rmSync(repo, { recursive: true, force: true });
  }
}

/** The printed table rows. */
export function mcpLines(m: McpBenchResult | undefined): string[] {
  if (!m) return [];
  if (m.error) return ["", `MCP round trip: ${m.error}`];
  const row = (name: string, d: Dist) => `  ${name.padEnd(34)} p50 ${d.p50.toFixed(0).padStart(5)} ms   p95 ${d.p95.toFixed(0).padStart(5)} ms   (n ${d.n})`;
  return [
    "",
    `MCP round trip on the sample repository (deliberate tool call vs the CLI, offline, ${m.rounds} rounds × ${MCP_QUESTIONS.length} questions)`,
    `  server start (spawn + initialize + tools/list) ${m.startMs.toFixed(0)} ms; first call ${m.firstCallMs.toFixed(0)} ms`,
    row("CLI, cold (--no-cache, fresh process)", m.cliCold),
    row("MCP deliberate, cold turn cache", m.mcpCold),
    row("CLI, turn-cache hit", m.cliWarm),
    row("MCP deliberate, turn-cache hit", m.mcpWarm),
    `  MCP / CLI (cold p50): ${m.ratio.toFixed(2)}×`,
  ];
}

/** The speed target as a bench target row. */
export function mcpTarget(m: McpBenchResult | undefined): { name: string; target: string; measured: string; status: "PASS" | "MISS" | "n/a" } {
  const name = "MCP deliberate call vs CLI (sample repo)";
  if (!m || m.error) return { name, target: "≤ 1.5× CLI", measured: m?.error ?? "not run", status: "n/a" };
  return { name, target: "≤ 1.5× CLI", measured: `${m.ratio.toFixed(2)}× (${m.mcpCold.p50.toFixed(0)} vs ${m.cliCold.p50.toFixed(0)} ms p50)`, status: m.ratio <= 1.5 ? "PASS" : "MISS" };
}

if (require.main === module) {
  const rounds = Number(process.argv[2] ?? 3);
  measureMcp(resolve(__dirname, ".."), (m) => process.stderr.write(`${m}\n`), rounds).then(
    (m) => {
      console.log(mcpLines(m).join("\n"));
      console.log(JSON.stringify(m));
    },
    (err) => {
      console.error(err instanceof Error ? err.stack : err);
      process.exit(1);
    },
  );
}
