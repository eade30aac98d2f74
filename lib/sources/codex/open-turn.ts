/** The Codex turn being read while streaming: its lines, held-back scaffolding, output tokens and fork fingerprint. */
import { createHash, type Hash } from "node:crypto";

import type { JsonObject } from "@/lib/sources/common/json-object";
import { pyDumps, type PyDumpsOptions } from "@/lib/json/python-json";
import type { CodexOutputTokens } from "@/lib/sources/codex/token-usage";

/** How a fork fingerprint writes each line (contract §1.8 step 5): `json.dumps(line, sort_keys=True)`, ASCII-escaped. */
const FORK_FINGERPRINT_JSON: PyDumpsOptions = { sortKeys: true, ensureAscii: true };

type HeldLine = { raw: JsonObject | null; record: JsonObject | null };

/**
 * The turn being read while streaming (contract §1.7). Lines are fed in order; scaffolding
 * lines are held back until a non-scaffolding line shows they sit inside the turn, so that the
 * pre-trigger scaffolding before the next trigger (which the next trigger discards) never
 * reaches the turn's output-token count or fingerprint. The last turn takes its held lines at
 * end of file ({@link flush}), since it runs to the last line.
 */
export class OpenTurn {
  /** Last line known to belong to the turn: the trigger, then every non-scaffolding line. */
  endLine: number;
  private held: HeldLine[] = [];
  private hash: Hash | null;

  /**
   * @param line the trigger line (1-based).
   * @param timestampMs the trigger's timestamp, epoch ms.
   * @param tokens the output-token accumulator, already started for this turn.
   * @param hashing compute the fork fingerprint (§1.8 step 5) of the turn's records.
   */
  constructor(
    readonly line: number,
    readonly timestampMs: number,
    private readonly tokens: CodexOutputTokens,
    hashing: boolean,
  ) {
    this.endLine = line;
    this.hash = hashing ? createHash("sha256") : null;
  }

  /**
   * Feeds one line. `raw` is the parsed line (null when malformed) as fingerprinted, `record`
   * the record as classified (legacy lines normalized).
   */
  add(line: number, raw: JsonObject | null, record: JsonObject | null, scaffolding: boolean): void {
    if (scaffolding) {
      this.held.push({ raw, record });
      return;
    }
    this.flush();
    this.include(raw, record);
    this.endLine = line;
  }

  /** Takes every held line into the turn (end of file: the last turn runs to the last line). */
  flush(): void {
    // Most lines hold nothing back: no new array per line (issue 13).
    if (this.held.length === 0) return;
    for (const held of this.held) this.include(held.raw, held.record);
    this.held = [];
  }

  /** Stops fingerprinting (the file cannot be a proven fork). */
  stopHashing(): void {
    this.hash = null;
  }

  /** Hex SHA-256 over the canonical JSON of each line of the turn plus `\n`, or null when not hashed. */
  fingerprint(): string | null {
    return this.hash === null ? null : this.hash.digest("hex");
  }

  private include(raw: JsonObject | null, record: JsonObject | null): void {
    this.tokens.observe(record);
    this.hash?.update(`${pyDumps(raw, FORK_FINGERPRINT_JSON)}\n`, "utf8");
  }
}
