import { canonicalJson, sha256 } from "./hash";
import type { DeliberationConfig } from "./types";

/** Bump when the pipeline's behaviour changes in a way that should invalidate cached turns and ids. */
export const CORE_VERSION = "1.1.0";

export const DEFAULT_ADR_GLOBS = [
  "docs/adr/**/*.md",
  "doc/adr/**/*.md",
  "docs/adrs/**/*.md",
  "docs/decisions/**/*.md",
  "docs/DECISIONS/**/*.md",
  "docs/architecture/decisions/**/*.md",
  "doc/architecture/decisions/**/*.md",
  "docs/architecture/adr/**/*.md",
  "adr/**/*.md",
  "adrs/**/*.md",
  "architecture-decisions/**/*.md",
  "decisions/**/*.md",
];

export const DEFAULT_CONVENTION_GLOBS = [
  "**/*ARCHITECTURE*.md",
  "**/*architecture*.md",
  "**/DESIGN*.md",
  "AGENTS.md",
  "**/AGENTS.md",
  "CLAUDE.md",
  "**/CLAUDE.md",
  ".github/copilot-instructions.md",
  ".cursorrules",
  ".cursor/rules/**",
  "CONTRIBUTING.md",
  "docs/CONTRIBUTING.md",
  ".github/CONTRIBUTING.md",
];

export const DEFAULT_CONFIG: DeliberationConfig = {
  adrGlobs: DEFAULT_ADR_GLOBS,
  conventionGlobs: DEFAULT_CONVENTION_GLOBS,
  ignoreGlobs: ["**/node_modules/**", "**/.git/**", "**/.deliberations/**", "**/dist/**", "**/out/**"],
  maxFileBytes: 1024 * 1024,
  git: { maxMs: 1200, pickaxeCommits: 2000, maxResults: 20 },
  offline: false,
  receiptsDir: ".deliberations",
  rrfK: 60,
  maxEvidence: 40,
};

export function resolveConfig(overrides: Partial<DeliberationConfig> = {}): DeliberationConfig {
  return {
    ...DEFAULT_CONFIG,
    ...overrides,
    git: { ...DEFAULT_CONFIG.git, ...(overrides.git ?? {}) },
  };
}

/**
 * The config version names the exact behaviour that produced a payload: the core version plus every setting that
 * changes what is found or how it is ranked. Receipts record it; the turn cache keys on it.
 */
export function configVersion(config: DeliberationConfig): string {
  const relevant = {
    core: CORE_VERSION,
    adrGlobs: config.adrGlobs,
    conventionGlobs: config.conventionGlobs,
    ignoreGlobs: config.ignoreGlobs,
    maxFileBytes: config.maxFileBytes,
    git: config.git,
    offline: config.offline,
    rrfK: config.rrfK,
    maxEvidence: config.maxEvidence,
  };
  return `${CORE_VERSION}+${sha256(canonicalJson(relevant)).slice(0, 10)}`;
}
