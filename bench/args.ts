// Command-line arguments of `npm run bench` (see the header of bench/run.ts and bench/README.md).
import { readFileSync } from "node:fs";
import { SIZES, type SizeName } from "./generate";
import { ENTRY } from "./paths";

export const DEFAULT_QUESTIONS = 20;
export const DEFAULT_BASELINE_QUESTIONS: Record<SizeName, number> = { small: 20, medium: 20, large: 5 };

export interface Args {
  sizes: SizeName[];
  questions: number;
  baselineQuestions?: number;
  baseline: boolean;
  vsix: boolean;
  profile: boolean;
  /** Include the real repository (JabRef/jabref) when its checkout or mirror is present. */
  real: boolean;
  worker?: "ours" | "baseline";
  size?: SizeName;
  out?: string;
}

export function parseArgs(argv: string[]): Args {
  const args: Args = { sizes: ["small", "medium", "large"], questions: DEFAULT_QUESTIONS, baseline: true, vsix: true, profile: false, real: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--sizes": {
        const sizes = value().split(",").map((s) => s.trim()).filter(Boolean);
        for (const s of sizes) if (!(s in SIZES)) throw new Error(`unknown size "${s}" (small, medium, large)`);
        args.sizes = sizes as SizeName[];
        break;
      }
      case "--questions":
        args.questions = positiveInt(value(), flag);
        break;
      case "--baseline-questions":
        args.baselineQuestions = positiveInt(value(), flag);
        break;
      case "--no-baseline":
        args.baseline = false;
        break;
      case "--no-vsix":
        args.vsix = false;
        break;
      case "--profile":
        args.profile = true;
        break;
      case "--no-real":
        args.real = false;
        break;
      case "--worker":
        args.worker = value() as Args["worker"];
        break;
      case "--size":
        args.size = value() as SizeName;
        break;
      case "--out":
        args.out = value();
        break;
      case "--help":
      case "-h":
        console.log(readFileSync(ENTRY, "utf8").split("\n").slice(0, 11).join("\n"));
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return args;
}

export function positiveInt(v: string | undefined, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive integer`);
  return n;
}
