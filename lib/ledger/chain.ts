// The audit ledger's hash chain: how an entry line is sealed with its position and hashes, and how a line is checked.
import { sha256Text } from "@/lib/json/canonical-json";

/*
 * A chained entry line is the entry's JSON with three fields added after the seed's (issue 26):
 *
 *   {…seed 002 fields…,"seq":41,"prev_hash":"<64 hex>","entry_hash":"<64 hex>"}
 *
 * `seq` is the entry's 0-based position in the chain (across segments), `prev_hash` the previous
 * entry's `entry_hash` (the genesis hash for the first chained entry of an empty ledger, the
 * SHA-256 of the last legacy line's bytes after a ledger written before the chain), and
 * `entry_hash` the SHA-256 of the line's own bytes without its `,"entry_hash":"…"` member. So a
 * byte changed anywhere in a line breaks that line's own hash, and a line replaced by a
 * self-consistent one breaks the next line's `prev_hash`.
 */

/** The `prev_hash` of the first entry of a ledger that had no line before it. */
export const GENESIS_HASH = "0".repeat(64);

/** The chain position of the next entry: its `seq` and the `prev_hash` it must carry. */
export type ChainTip = { seq: number; hash: string };

const SEAL = /,"entry_hash":"([0-9a-f]{64})"\}$/;

/**
 * Seals one entry at `tip`: returns the line (without newline) and its `entry_hash`. The entry
 * must not carry `seq`, `prev_hash` or `entry_hash` already (they are dropped if it does).
 */
export function sealEntry(entry: Record<string, unknown>, tip: ChainTip): { line: string; hash: string } {
  const { seq: _s, prev_hash: _p, entry_hash: _e, ...fields } = entry;
  const body = JSON.stringify({ ...fields, seq: tip.seq, prev_hash: tip.hash });
  const hash = sha256Text(body);
  return { line: `${body.slice(0, -1)},"entry_hash":"${hash}"}`, hash };
}

/** A ledger line as the chain sees it. `legacy`: a parseable line without a seal (written before the chain). */
export type ChainLine =
  | { kind: "sealed"; seq: number; prev_hash: string; entry_hash: string; self_ok: boolean; value: Record<string, unknown> }
  | { kind: "legacy"; hash: string; value: Record<string, unknown> }
  | { kind: "unparseable"; hash: string };

/**
 * Reads one line (without its newline): a sealed line is re-hashed (`self_ok` false when any byte
 * of it changed since it was written); its `seq` and `prev_hash` are taken as written.
 */
export function readChainLine(text: string): ChainLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "unparseable", hash: sha256Text(text) };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { kind: "unparseable", hash: sha256Text(text) };
  const record = value as Record<string, unknown>;
  const m = SEAL.exec(text);
  if (!m && record.entry_hash === undefined && record.seq === undefined) return { kind: "legacy", hash: sha256Text(text), value: record };
  const seq = typeof record.seq === "number" && Number.isInteger(record.seq) ? record.seq : -1;
  const prev = typeof record.prev_hash === "string" ? record.prev_hash : "";
  const claimed = typeof record.entry_hash === "string" ? record.entry_hash : "";
  const selfOk = m !== null && m[1] === claimed && sha256Text(`${text.slice(0, m.index)}}`) === claimed;
  return { kind: "sealed", seq, prev_hash: prev, entry_hash: claimed, self_ok: selfOk, value: record };
}

/** The hash a line contributes to the chain and to its segment's Merkle root. */
export const lineHash = (line: ChainLine): string => (line.kind === "sealed" ? line.entry_hash : line.hash);
