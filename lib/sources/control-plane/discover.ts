/** A Control Plane root's ledgers found by their names. */
import fs from "node:fs/promises";
import path from "node:path";

import { AppError } from "@/lib/errors";
import { listDir } from "@/lib/fs/list-dir";

/** The three ledgers seed 004's tools read, by their source names. */
export const MAIN_LEDGERS = ["governance", "ho2m", "ho1m"] as const;
export type MainLedgerName = (typeof MAIN_LEDGERS)[number];

/** Where the main ledgers live under a Control Plane root (source-formats.md §3.1). */
const MAIN_LEDGER_DIRS: Record<MainLedgerName, string> = { governance: "HOT/ledger", ho2m: "HO2/ledger", ho1m: "HO1/ledger" };

/** One ledger: its segments in chain order (rotated `<stem>-YYYYMMDD-HHMMSS.jsonl` by name, then the active `<stem>.jsonl`). */
export type DiscoveredLedger = {
  /** Name used by the tools: `governance`, `ho2m`, `ho1m`, another tier ledger's stem (`workorder`), or `<SES-id>/<stem>` for a per-session ledger. */
  id: string;
  kind: "tier" | "session";
  /** `HOT`, `HO2`, `HO1`, … for tier ledgers; the plane (`ho1`) for per-session ledgers. */
  tier: string;
  stem: string;
  /** Absolute ledger directory. */
  dir: string;
  /** Absolute segment paths in chain order. */
  segments: string[];
  /** Absolute `index.jsonl` of the ledger directory when it exists (segment rollups). */
  indexFile: string | null;
  /** The session of a per-session ledger. */
  sessionId: string | null;
};

/** What a Control Plane root holds. */
export type ControlPlaneLayout = {
  /** Absolute, real root. */
  root: string;
  ledgers: DiscoveredLedger[];
};

const ROTATED = /^(.+)-(\d{8}-\d{6})\.jsonl$/;
const TIER_DIR = /^HO(?:T|\d+)$/;

/**
 * Finds the ledgers of a Control Plane v2 root (source-formats.md §3.1, §3.4): every
 * `<TIER>/ledger/*.jsonl` (HOT, HO1, HO2, HO3, …; `index.jsonl` excluded, rotated segments grouped
 * with their stem) and every `planes/<plane>/sessions/SES-*\/ledger/*.jsonl`. Reads directories
 * only; never opens or modifies a ledger. Tier ledgers come first (governance, ho2m, ho1m, then by
 * tier and stem), then per-session ledgers by session and stem.
 * @throws AppError invalid_input when `root` is not a directory or holds no ledger at all.
 */
export async function discoverControlPlane(root: string): Promise<ControlPlaneLayout> {
  let real: string;
  try {
    real = await fs.realpath(root);
    if (!(await fs.stat(real)).isDirectory()) throw new Error("not a directory");
  } catch {
    throw new AppError("invalid_input", `Control Plane root ${root} is not a directory`, { path: root, hint: "pass the directory that holds HOT/, HO2/, HO1/ (and planes/)" });
  }
  const tiers = (await listNames(real, "dir")).filter((n) => TIER_DIR.test(n));
  const tierLedgers: DiscoveredLedger[] = [];
  for (const tier of tiers) {
    const dir = path.join(real, tier, "ledger");
    tierLedgers.push(...(await ledgersIn(dir, "tier", tier, null)));
  }
  const stemCount = new Map<string, number>();
  for (const l of tierLedgers) stemCount.set(l.stem, (stemCount.get(l.stem) ?? 0) + 1);
  for (const l of tierLedgers) {
    const main = (MAIN_LEDGERS as readonly string[]).includes(l.stem) && path.join(real, MAIN_LEDGER_DIRS[l.stem as MainLedgerName]) === l.dir;
    l.id = main || stemCount.get(l.stem) === 1 ? l.stem : `${l.tier}/${l.stem}`;
  }
  const rank = (l: DiscoveredLedger) => {
    const i = (MAIN_LEDGERS as readonly string[]).indexOf(l.id);
    return i === -1 ? MAIN_LEDGERS.length : i;
  };
  tierLedgers.sort((a, b) => rank(a) - rank(b) || a.tier.localeCompare(b.tier) || a.stem.localeCompare(b.stem));
  const sessionLedgers: DiscoveredLedger[] = [];
  const planesDir = path.join(real, "planes");
  for (const plane of await listNames(planesDir, "dir")) {
    const sessionsDir = path.join(planesDir, plane, "sessions");
    for (const ses of (await listNames(sessionsDir, "dir")).filter((n) => n.startsWith("SES-"))) {
      for (const l of await ledgersIn(path.join(sessionsDir, ses, "ledger"), "session", plane, ses)) sessionLedgers.push(l);
    }
  }
  sessionLedgers.sort((a, b) => a.id.localeCompare(b.id));
  const ledgers = [...tierLedgers, ...sessionLedgers];
  if (ledgers.length === 0) {
    throw new AppError("invalid_input", `no Control Plane ledger under ${root}`, { path: root, hint: "expected HOT/ledger/governance.jsonl, HO2/ledger/ho2m.jsonl, HO1/ledger/ho1m.jsonl or planes/*/sessions/SES-*/ledger/*.jsonl" });
  }
  return { root: real, ledgers };
}

/** The ledger of a layout by tool name, or undefined. */
export function findLedger(layout: ControlPlaneLayout, id: string): DiscoveredLedger | undefined {
  return layout.ledgers.find((l) => l.id === id);
}

async function ledgersIn(dir: string, kind: DiscoveredLedger["kind"], tier: string, sessionId: string | null): Promise<DiscoveredLedger[]> {
  const files = (await listNames(dir, "file")).filter((n) => n.endsWith(".jsonl") && n !== "index.jsonl");
  const byStem = new Map<string, { rotated: string[]; active: string | null }>();
  for (const name of files) {
    const m = ROTATED.exec(name);
    const stem = m ? m[1]! : name.slice(0, -".jsonl".length);
    const group = byStem.get(stem) ?? { rotated: [], active: null };
    if (m) group.rotated.push(name);
    else group.active = name;
    byStem.set(stem, group);
  }
  const indexFile = files.length > 0 && (await listNames(dir, "file")).includes("index.jsonl") ? path.join(dir, "index.jsonl") : null;
  return [...byStem.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([stem, g]) => ({
      id: sessionId ? `${sessionId}/${stem}` : stem,
      kind,
      tier,
      stem,
      dir,
      segments: [...g.rotated.sort(), ...(g.active ? [g.active] : [])].map((n) => path.join(dir, n)),
      indexFile,
      sessionId,
    }));
}

/** The sorted names of the folders or files in `dir`; none when it cannot be read. */
const listNames = (dir: string, type: "dir" | "file"): Promise<string[]> => listDir(dir, { type });
