import { grown } from "@/lib/jsonl/grown";
import type { LineRange } from "@/lib/jsonl/parallel";
import { readRangeLines } from "@/lib/jsonl/range-lines";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { BLANK, skimLine } from "@/lib/sources/common/skim";
import { CODEX_ENVELOPE, envelopeSuffices } from "@/lib/sources/codex/skim-plan";

/**
 * The record `CodexAnalyzer.pushRecord` needs of the line `bytes[start, end)` while the analyzer
 * is `skimmable` (an envelope-format file read without fork fingerprints): the skimmed envelope
 * when {@link envelopeSuffices} (the line's other bytes are checked, never built), else the
 * `JSON.parse`d object of the decoded line, null when it is not a JSON object (malformed or blank).
 */
export function codexLineRecord(bytes: Buffer, start: number, end: number): JsonObject | null {
  const skimmed = skimLine(bytes, start, end, CODEX_ENVELOPE);
  if (skimmed !== null && skimmed !== BLANK && envelopeSuffices(skimmed.record)) return skimmed.record;
  return parseJsonObject(bytes.toString("utf8", start, end));
}

/**
 * The {@link codexLineRecord}s of a byte range as a worker sends them. Structured-cloning every
 * record of the 321 MB real-shaped rollout (184,465 small objects) cost ~0.24 s of CPU, ~0.15 s
 * of it deserializing on the main thread, which also folds; sent this way it costs ~0.1 s (issue
 * 13). A record made only of a string `timestamp`, a string `type` and a `payload` of string
 * `type`/`role`/`cwd` (most skimmed envelopes) is sent as its shape (an index into `shapes`: one
 * such record per distinct key order and values other than the timestamp) and its timestamp (a
 * slice of `stamps`); any other record goes whole in `objects`. Read back with
 * {@link rangeRecordsReader}, which rebuilds each record exactly (key order included).
 */
export type CodexRangeRecords = {
  /** Per line: 0 null, 1 shape + timestamp, 2 the next of `objects`. */
  kinds: Uint8Array;
  /** Per line of kind 1: index into `shapes`. */
  shapeIndex: Uint32Array;
  /** Per line of kind 1: length of its timestamp in `stamps`. */
  stampLengths: Uint32Array;
  stamps: string;
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

/** The buffers of a {@link CodexRangeRecords} a worker moves rather than copies. */
export function rangeRecordsTransfer(r: CodexRangeRecords): ArrayBuffer[] {
  return [r.kinds, r.shapeIndex, r.stampLengths, r.starts].map((a) => a.buffer as ArrayBuffer);
}

/** Reads the records of a {@link CodexRangeRecords} back, in line order: each call returns the next (a fresh object). */
export function rangeRecordsReader(r: CodexRangeRecords): () => JsonObject | null {
  let i = 0;
  let object = 0;
  let shaped = 0;
  let stampAt = 0;
  return () => {
    const kind = r.kinds[i++];
    if (kind === 0) return null;
    if (kind === 2) return r.objects[object++]!;
    const length = r.stampLengths[shaped]!;
    const stamp = r.stamps.slice(stampAt, stampAt + length);
    stampAt += length;
    return withStamp(r.shapes[r.shapeIndex[shaped++]!]!, stamp);
  };
}

const ENVELOPE_KEYS = new Set(["timestamp", "type", "payload"]);
const PAYLOAD_KEYS = new Set(["type", "role", "cwd"]);

/**
 * The shape key of a record {@link withStamp} rebuilds exactly from its shape and timestamp (its
 * keys in order and every value but the timestamp's; strings length-prefixed, so distinct
 * records never share a key), or null for any other record.
 */
function shapeKey(record: JsonObject): string | null {
  if (typeof record.timestamp !== "string") return null;
  let key = "";
  for (const name in record) {
    if (!ENVELOPE_KEYS.has(name)) return null;
    const value = record[name];
    if (name === "timestamp") key += "t;";
    else if (name === "type") {
      if (typeof value !== "string") return null;
      key += `y${value.length}:${value};`;
    } else {
      if (!isJsonObject(value)) return null;
      key += "p{";
      for (const field in value) {
        const text = value[field];
        if (!PAYLOAD_KEYS.has(field) || typeof text !== "string") return null;
        key += `${field}${text.length}:${text};`;
      }
      key += "}";
    }
  }
  return key;
}

/** A fresh copy of `shape` (keys in the same order) whose `timestamp` is `stamp`. */
function withStamp(shape: JsonObject, stamp: string): JsonObject {
  const out: JsonObject = {};
  for (const name in shape) out[name] = name === "timestamp" ? stamp : name === "payload" ? { ...(shape.payload as JsonObject) } : shape[name]!;
  return out;
}

class RangeRecordsWriter {
  private count = 0;
  private shapedCount = 0;
  private kinds: Uint8Array;
  private shapeIndex: Uint32Array;
  private stampLengths: Uint32Array;
  private readonly stamps: string[] = [];
  private readonly shapes: JsonObject[] = [];
  private readonly shapeIds = new Map<string, number>();
  private readonly objects: JsonObject[] = [];

  constructor(capacity: number) {
    const n = Math.max(16, Math.ceil(capacity));
    this.kinds = new Uint8Array(n);
    this.shapeIndex = new Uint32Array(n);
    this.stampLengths = new Uint32Array(n);
  }

  push(record: JsonObject | null): void {
    if (this.count === this.kinds.length) this.kinds = grown(this.kinds, this.count * 2);
    const i = this.count++;
    const key = record === null ? null : shapeKey(record);
    if (record === null) this.kinds[i] = 0;
    else if (key === null) {
      this.kinds[i] = 2;
      this.objects.push(record);
    } else {
      this.kinds[i] = 1;
      let id = this.shapeIds.get(key);
      if (id === undefined) {
        id = this.shapes.length;
        this.shapes.push(record);
        this.shapeIds.set(key, id);
      }
      if (this.shapedCount === this.shapeIndex.length) {
        this.shapeIndex = grown(this.shapeIndex, this.shapedCount * 2);
        this.stampLengths = grown(this.stampLengths, this.shapedCount * 2);
      }
      const stamp = record.timestamp as string;
      this.shapeIndex[this.shapedCount] = id;
      this.stampLengths[this.shapedCount++] = stamp.length;
      this.stamps.push(stamp);
    }
  }

  finish(): Omit<CodexRangeRecords, "starts"> {
    return {
      kinds: this.kinds.slice(0, this.count),
      shapeIndex: this.shapeIndex.slice(0, this.shapedCount),
      stampLengths: this.stampLengths.slice(0, this.shapedCount),
      stamps: this.stamps.join(""),
      shapes: this.shapes,
      objects: this.objects,
    };
  }
}
