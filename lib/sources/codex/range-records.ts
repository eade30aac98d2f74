/** Records of one byte range of a Codex rollout, packed for hand-over from a worker. */
import { Columns, ValueTable } from "@/lib/columns/typed-columns";
import type { LineRange } from "@/lib/jsonl/workers";
import { readRangeLines } from "@/lib/jsonl/range-lines";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { BLANK, skimLine } from "@/lib/sources/common/skim";
import { codexRecordFacts, type CodexRecordFacts } from "@/lib/sources/codex/records";
import { CODEX_ENVELOPE, envelopeSuffices } from "@/lib/sources/codex/skim-plan";

/**
 * A line as `CodexAnalyzer.pushRecord` takes it while skimmable: the record, and its timestamp
 * (epoch ms, null when it has none) when the skim read it from the bytes; `undefined` when the
 * record was parsed whole and keeps its own `timestamp` field. `facts`: the record's
 * {@link codexRecordFacts} when it is a record the skim shares between lines (computed once per
 * record), else undefined.
 */
export type CodexLineRecord = { record: JsonObject | null; timestampMs: number | null | undefined; facts: CodexRecordFacts | undefined };

/**
 * The record `CodexAnalyzer.pushRecord` needs of the line `bytes[start, end)` while the analyzer
 * is `skimmable` (an envelope-format file read without fork fingerprints): the skimmed envelope
 * and its timestamp when {@link envelopeSuffices} (the line's other bytes are checked, never
 * built), else the `JSON.parse`d object of the decoded line, null when it is not a JSON object
 * (malformed or blank). The answer is one object reused by every call: read it before the next.
 */
export function codexLineRecord(bytes: Buffer, start: number, end: number): CodexLineRecord {
  const skimmed = skimLine(bytes, start, end, CODEX_ENVELOPE);
  if (skimmed !== null && skimmed !== BLANK && envelopeSuffices(skimmed.record)) {
    LINE.record = skimmed.record;
    LINE.timestampMs = skimmed.timestampMs;
    LINE.facts = Object.isFrozen(skimmed.record) ? sharedFacts(skimmed.record) : undefined;
  } else {
    LINE.record = parseJsonObject(bytes.toString("utf8", start, end));
    LINE.timestampMs = undefined;
    LINE.facts = undefined;
  }
  return LINE;
}
const LINE: CodexLineRecord = { record: null, timestampMs: undefined, facts: undefined };

/** The facts of a record the skim shares between lines (frozen: never changed), by record. */
function sharedFacts(record: JsonObject): CodexRecordFacts {
  let facts = FACTS.get(record);
  if (facts === undefined) {
    facts = codexRecordFacts(record);
    FACTS.set(record, facts);
  }
  return facts;
}
const FACTS = new WeakMap<JsonObject, CodexRecordFacts>();

/**
 * The {@link codexLineRecord}s of a byte range as a worker sends them: cheaper to hand over than
 * one structured-cloned object per record. A skimmed record made only of a string `type` and a
 * `payload` of string `type`/`role`/`cwd` (most envelopes) is sent as its shape (an index into
 * `shapes`: one such record per distinct key order and values); any other record goes whole in
 * `objects`; skimmed timestamps go in `stamps`. Read back with {@link rangeRecordsReader}, which
 * rebuilds each line exactly (key order included).
 */
export type CodexRangeRecords = {
  /** Per line: 0 null, 1 a shape, 2 the next of `objects` with its skimmed timestamp, 3 the next of `objects` parsed whole. */
  kinds: Uint8Array;
  /** Per line of kind 1: index into `shapes`. */
  shapeIndex: Uint32Array;
  /** Per line of kind 1 or 2: its skimmed timestamp, epoch ms (NaN for none). */
  stamps: Float64Array;
  shapes: JsonObject[];
  objects: JsonObject[];
  /** Absolute byte offset of each line's start. */
  starts: Float64Array;
};

/**
 * The {@link codexLineRecord} of every line in bytes `[range.startByte, range.endByte)` (line
 * numbers are not needed: the caller folds ranges in order). The worker task of
 * `analyzeCodexTranscript` for an envelope-format file read without fingerprints (issue 13).
 * @throws the fs error when the file cannot be read.
 */
export async function codexRangeRecords(filePath: string, range: LineRange): Promise<CodexRangeRecords> {
  const writer = new RangeRecordsWriter((range.endByte - range.startByte) / 1024);
  const starts = await readRangeLines(filePath, range, (bytes, start, end) => writer.push(codexLineRecord(bytes, start, end)));
  return { ...writer.finish(), starts };
}

/**
 * Reads the lines of a {@link CodexRangeRecords} back, in line order: each call returns the next
 * (a fresh record, in one answer object reused by every call, as {@link codexLineRecord}'s).
 */
export function rangeRecordsReader(r: CodexRangeRecords): () => CodexLineRecord {
  let i = 0;
  let object = 0;
  let shaped = 0;
  let stamped = 0;
  const out: CodexLineRecord = { record: null, timestampMs: undefined, facts: undefined };
  return () => {
    const kind = r.kinds[i++];
    if (kind === 0) {
      out.record = null;
      out.timestampMs = undefined;
    } else if (kind === 3) {
      out.record = r.objects[object++]!;
      out.timestampMs = undefined;
    } else {
      out.record = kind === 2 ? r.objects[object++]! : copyOf(r.shapes[r.shapeIndex[shaped++]!]!);
      const ms = r.stamps[stamped++]!;
      out.timestampMs = Number.isNaN(ms) ? null : ms;
    }
    return out;
  };
}

const PAYLOAD_KEYS = new Set(["type", "role", "cwd"]);

/**
 * The shape key of a skimmed record {@link copyOf} rebuilds exactly from its shape (its keys in
 * order and every value; strings length-prefixed, so distinct records never share a key), or
 * null for any other record.
 */
function shapeKey(record: JsonObject): string | null {
  let key = "";
  for (const name in record) {
    const value = record[name];
    if (name === "type") {
      if (typeof value !== "string") return null;
      key += `y${value.length}:${value};`;
    } else if (name === "payload") {
      if (!isJsonObject(value)) return null;
      key += "p{";
      for (const field in value) {
        const text = value[field];
        if (!PAYLOAD_KEYS.has(field) || typeof text !== "string") return null;
        key += `${field}${text.length}:${text};`;
      }
      key += "}";
    } else return null;
  }
  return key;
}

/** A fresh copy of `shape` (keys in the same order, its payload copied too). */
function copyOf(shape: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const name in shape) out[name] = name === "payload" ? { ...(shape.payload as JsonObject) } : shape[name]!;
  return out;
}

/** Packs {@link codexLineRecord}s: kinds per line, shape indexes per shaped line, timestamps per skimmed line. */
class RangeRecordsWriter {
  private readonly kinds: Columns<{ kinds: Uint8Array }>;
  private readonly shaped: Columns<{ shapeIndex: Uint32Array }>;
  private readonly stamped: Columns<{ stamps: Float64Array }>;
  private readonly shapeKeys = new ValueTable<string>();
  private readonly shapes: JsonObject[] = [];
  private readonly objects: JsonObject[] = [];

  constructor(capacity: number) {
    this.kinds = new Columns({ kinds: Uint8Array }, capacity);
    this.shaped = new Columns({ shapeIndex: Uint32Array }, capacity);
    this.stamped = new Columns({ stamps: Float64Array }, capacity);
  }

  push({ record, timestampMs }: CodexLineRecord): void {
    const i = this.kinds.add();
    const kinds = this.kinds.cols.kinds;
    if (record === null) {
      kinds[i] = 0;
      return;
    }
    if (timestampMs === undefined) {
      kinds[i] = 3;
      this.objects.push(record);
      return;
    }
    const s = this.stamped.add();
    this.stamped.cols.stamps[s] = timestampMs ?? NaN;
    const key = shapeKey(record);
    if (key === null) {
      kinds[i] = 2;
      this.objects.push(record);
      return;
    }
    kinds[i] = 1;
    const id = this.shapeKeys.id(key);
    if (id === this.shapes.length) this.shapes.push(record);
    const k = this.shaped.add();
    this.shaped.cols.shapeIndex[k] = id;
  }

  finish(): Omit<CodexRangeRecords, "starts"> {
    return { ...this.kinds.take(), ...this.shaped.take(), ...this.stamped.take(), shapes: this.shapes, objects: this.objects };
  }
}
