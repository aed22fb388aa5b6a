// CLI model settings: flags first, then environment. The rules:
//  - `--offline` wins over everything: provider none, no network, with a one-line note if a model was configured.
//  - `--provider none|openai` is explicit. Without it, the provider is "openai" as soon as a base URL or a model is
//    given (flag or DELIBERATIVE_BASE_URL / DELIBERATIVE_MODEL), else "none". An API key alone never turns a
//    model on: an OPENAI_API_KEY exported for other tools must not start sending repository text anywhere.
//  - provider openai needs a model name (a deliberation pins its model; there is no default). The base URL defaults
//    to https://api.openai.com/v1.
//  - Key: DELIBERATIVE_API_KEY, for any host. OPENAI_API_KEY is used only for *.openai.com and loopback hosts, so
//    an OpenAI key is never sent to a third-party endpoint by accident (a note says so).
import { isIP } from "node:net";
import { OPENAI_DEFAULTS, endpointHostOf, type OpenAIChatModelOptions } from "./client";
import { scrubSecrets } from "./errors";

export interface CliModelFlags {
  provider?: string;
  baseUrl?: string;
  model?: string;
  offline?: boolean;
  timeoutMs?: number;
  maxTokens?: number;
}

export type CliModelConfig =
  | { provider: "none"; note?: string }
  | {
      provider: "openai";
      options: OpenAIChatModelOptions;
      host: string;
      /** Which variable the key came from (never the key). */
      keySource?: "DELIBERATIVE_API_KEY" | "OPENAI_API_KEY";
      note?: string;
    };

/** A configuration the user must fix; the message is one line and carries no secret. */
export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelConfigError";
  }
}

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * True for a loopback address literal (127.0.0.0/8, ::1, ::ffff:127.x) or exactly "localhost". A name test such as
 * a "127." prefix would also match a DNS name like 127.0.0.1.attacker.example, which can point anywhere.
 */
export function isLoopback(host: string): boolean {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(host);
  const h = (bracketed ? bracketed[1] : isIP(host) ? host : host.replace(/:\d+$/, "")).toLowerCase();
  if (h === "localhost") return true;
  const family = isIP(h);
  if (family === 4) return !bracketed && h.startsWith("127.");
  // A zone id ("::1%lo") is not something a base URL can carry; refuse rather than guess.
  if (family !== 6 || h.includes("%")) return false;
  // The WHATWG form: "::1", and IPv4-mapped addresses as "::ffff:7f00:1" whatever their spelling.
  const canonical = new URL(`http://[${h}]/`).hostname.slice(1, -1);
  return canonical === "::1" || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical);
}

function isOpenAIHost(host: string): boolean {
  const h = host.replace(/:\d+$/, "");
  return h === "openai.com" || h.endsWith(".openai.com");
}

function positiveInt(value: string | number | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ModelConfigError(`${name} must be a positive integer`);
  return n;
}

export function modelOptionsFromCli(flags: CliModelFlags, env: NodeJS.ProcessEnv = process.env): CliModelConfig {
  const baseUrl = (flags.baseUrl ?? env.DELIBERATIVE_BASE_URL ?? "").trim() || undefined;
  const model = (flags.model ?? env.DELIBERATIVE_MODEL ?? "").trim() || undefined;
  const requested = flags.provider?.trim().toLowerCase();
  if (requested !== undefined && requested !== "openai" && requested !== "none") {
    throw new ModelConfigError(`--provider must be "openai" or "none", not ${JSON.stringify(scrubSecrets(flags.provider ?? "").slice(0, 40))}`);
  }
  const provider = requested ?? (baseUrl || model ? "openai" : "none");
  if (flags.offline) {
    return provider === "openai"
      ? { provider: "none", note: "--offline: the configured model is not used (no network); rules planner and synthesizer." }
      : { provider: "none" };
  }
  if (provider === "none") return { provider: "none" };

  if (!model) throw new ModelConfigError("--provider openai needs --model NAME (or DELIBERATIVE_MODEL): a deliberation pins its model, there is no default");
  const url = baseUrl ?? DEFAULT_OPENAI_BASE_URL;
  let host: string;
  try {
    host = endpointHostOf(url);
  } catch (err) {
    throw new ModelConfigError((err as Error).message);
  }
  const parsed = new URL(url);
  if (parsed.username || parsed.password) {
    throw new ModelConfigError("the base URL must not contain credentials; put the key in DELIBERATIVE_API_KEY");
  }

  let apiKey: string | undefined;
  let keySource: "DELIBERATIVE_API_KEY" | "OPENAI_API_KEY" | undefined;
  let note: string | undefined;
  if (env.DELIBERATIVE_API_KEY?.trim()) {
    apiKey = env.DELIBERATIVE_API_KEY.trim();
    keySource = "DELIBERATIVE_API_KEY";
  } else if (env.OPENAI_API_KEY?.trim()) {
    if (isOpenAIHost(host) || isLoopback(host)) {
      apiKey = env.OPENAI_API_KEY.trim();
      keySource = "OPENAI_API_KEY";
    } else {
      note = `OPENAI_API_KEY is not sent to ${host}; set DELIBERATIVE_API_KEY if that endpoint needs a key.`;
    }
  }
  if (!apiKey && isOpenAIHost(host)) {
    throw new ModelConfigError(`${host} needs an API key: set DELIBERATIVE_API_KEY or OPENAI_API_KEY`);
  }

  const maxTokens = positiveInt(flags.maxTokens ?? env.DELIBERATIVE_MAX_TOKENS, "the model max tokens");
  const options: OpenAIChatModelOptions = {
    baseURL: url,
    model,
    ...(apiKey ? { apiKey } : {}),
    timeoutMs: positiveInt(flags.timeoutMs ?? env.DELIBERATIVE_TIMEOUT_MS, "the model timeout") ?? OPENAI_DEFAULTS.timeoutMs,
    ...(maxTokens ? { maxTokens } : {}),
    temperature: 0,
    maxRetries: OPENAI_DEFAULTS.maxRetries,
  };
  return { provider: "openai", options, host, ...(keySource ? { keySource } : {}), ...(note ? { note } : {}) };
}

/** One line for `--verbose` / the status bar: provider, model, host and key source, never the key. */
export function describeModelConfig(config: CliModelConfig): string {
  if (config.provider === "none") return "model: none (offline rules planner and synthesizer)";
  return `model: ${config.options.model} at ${config.host}${config.keySource ? ` (key from ${config.keySource})` : " (no key)"}`;
}
