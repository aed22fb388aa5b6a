// Percentiles, distributions and rounding for the bench's numbers.

export const MB = 1024 * 1024;

export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export interface Dist {
  p50: number;
  p95: number;
  max: number;
  n: number;
}
export function dist(xs: number[]): Dist {
  return { p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), max: round(Math.max(...xs)), n: xs.length };
}
export function round(n: number, d = 1): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}
export const rate = (xs: boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : NaN);

export function pct(x: number): string {
  return Number.isNaN(x) ? "n/a" : `${Math.round(x * 100)}%`;
}

/** A bench module run on its own: its report lines, its target row and the raw figures on stdout; a failure exits 1. */
export function printStandalone<T>(run: Promise<T>, lines: (r: T) => string[], target: (r: T) => unknown): void {
  run.then(
    (r) => {
      console.log(lines(r).join("\n"));
      console.log(`target: ${JSON.stringify(target(r))}`);
      console.log(JSON.stringify(r));
    },
    (err) => {
      console.error(err instanceof Error ? err.stack : err);
      process.exit(1);
    },
  );
}
