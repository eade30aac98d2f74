/** The skim's reader state: the line being skimmed, where the walk is, the scanner's tape, and one thread's caches. */
import type { JsonScanner } from "@/lib/jsonl/json-scan";
import type { JsonObject } from "@/lib/sources/common/json-object";
import { SkimMemories } from "@/lib/sources/common/skim-memories";
import { PlanImage } from "@/lib/sources/common/skim-plan-image";
import { ShapedStamps } from "@/lib/sources/common/skim-stamp";
import { RepeatedTails } from "@/lib/sources/common/skim-tails";

/** A skimmed line: the record with the fields the classifier reads, and its timestamp. */
export type SkimmedRecord = { record: JsonObject; timestampMs: number | null };

/** A record shared by the lines of a shared plan, with what its lines hold: the tape's codes, the entries of its strings and their bytes (each with its closing quote). */
export type SharedRecord = { record: JsonObject; codes: Int32Array; strings: Int32Array; bytes: Uint8Array };

/** Thrown inside a walk when the line is not valid JSON (or the skim cannot decide); skimLine answers null. */
export class Invalid extends Error {}
/** The one {@link Invalid} thrown (no stack built per line). */
export const INVALID = new Invalid("invalid JSON");

const EMPTY = Buffer.alloc(0);

/**
 * One thread's skim reader: every field is set by skimLine for the line it skims and read by the
 * walks (lib/sources/common/skim-walk, skim-tape, skim-bytes), which take the reader as their first
 * argument. Fields are declared here only, so every reader has one shape.
 */
export class SkimReader {
  /** The bytes the walk reads: the caller's buffer, or the scratch scan memory a long line was copied into. */
  buf: Buffer = EMPTY;
  /** The walk's position in {@link buf}. */
  pos = 0;
  /** The line's end in {@link buf} (exclusive; the next line's bytes are never read). */
  end = 0;
  /** The line's timestamp, epoch ms, when its planned `timestamp` member was read. */
  stampMs: number | null = null;
  /** {@link buf} when a scanner reaches it (else null), that scanner, and the memory address of `scanBytes[0]`. */
  scanBytes: Buffer | null = null;
  scanner: JsonScanner | null = null;
  scanBase = 0;
  /** The scanner's tape of the line (code, from, to per entry), the entry being read and the end of the used entries. */
  tape: Int32Array = new Int32Array(0);
  tapeAt = 0;
  tapeEnd = 0;
  /** True once the scanner walked the current line (its tape holds the line's planned members). */
  tapeWalked = false;

  /** Containers open in skipValue: 1 object, 0 array (deeper values are left to JSON.parse). */
  readonly open = new Uint8Array(4096);
  /** Where lines are scanned (lib/sources/common/skim-memories). */
  readonly memories = new SkimMemories();
  /** The compiled object plans (lib/sources/common/skim-plan-image). */
  readonly planImage = new PlanImage();
  /** The timestamp reader (lib/sources/common/skim-stamp). */
  readonly stamps = new ShapedStamps();
  /** The kept repeated tails (lib/sources/common/skim-tails). */
  readonly tails = new RepeatedTails(this.stamps);
  /** Records of shared plans, by the hash of their tape's codes and string bytes (see lib/sources/common/skim-tape). */
  readonly sharedRecords = new Map<number, SharedRecord>();

  /** Lets go of the line's bytes and scanner once the line is settled. */
  release(): void {
    this.buf = EMPTY;
    this.scanBytes = null;
    this.scanner = null;
  }
}
