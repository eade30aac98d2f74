/** Session and turn refs assigned, and the index serialized (contract §1.5). */
import type { PlannedSession } from "@/lib/workspace/prepare-plan";
import type { IndexRow } from "@/lib/workspace/schema";

export type ExistingRows = Partial<IndexRow>[];

/**
 * Assigns `S%04d` refs (contract §1.5) and `T%04d` turn refs. Sessions already in the index
 * (same source and source_session_id; of the same machine first, issue 39: two machines' copies
 * of one session are two rows, `machineOf` giving an existing row's recorded machine) keep their
 * ref, so evidence cards stay attached; new sessions, sorted by (source, source_session_id,
 * session_path), take the next free numbers. Rows of the existing index whose source is gone
 * are kept as they are. Returns rows in session_ref order.
 */
export function assignRefs(sessions: PlannedSession[], existing: ExistingRows, machineOf: (sessionRef: string | undefined) => string = () => ""): IndexRow[] {
  // Existing rows by session (source and id), then by machine.
  const bySession = new Map<string, Map<string, Partial<IndexRow>>>();
  for (const row of existing) {
    if (!row.source || !row.source_session_id) continue;
    const session = `${row.source}\u0000${row.source_session_id}`;
    const machines = bySession.get(session) ?? new Map<string, Partial<IndexRow>>();
    machines.set(machineOf(row.session_ref), row);
    bySession.set(session, machines);
  }
  let next = existing.reduce((max, r) => Math.max(max, refNumber(r.session_ref)), 0);
  const sorted = [...sessions].sort((a, b) => cmp(key(a), key(b)));
  const machineOfPlan = (s: PlannedSession) => s.machine ?? machineOf(undefined);
  // A row of the session's own machine first; else one of another machine (a root retagged with
  // its machine) whose own machine's session is not planned.
  const planned = new Set(sorted.map((s) => `${machineOfPlan(s)}\u0000${s.source}\u0000${s.sourceSessionId}`));
  const priorRow = (s: PlannedSession): Partial<IndexRow> | undefined => {
    const machines = bySession.get(`${s.source}\u0000${s.sourceSessionId}`);
    if (!machines) return undefined;
    const own = machines.get(machineOfPlan(s));
    const row = own ?? [...machines].find(([m]) => !planned.has(`${m}\u0000${s.source}\u0000${s.sourceSessionId}`))?.[1];
    if (row) for (const [m, r] of machines) if (r === row) machines.delete(m);
    return row;
  };
  const rows = new Map<string, IndexRow>();
  for (const s of sorted) {
    const prior = priorRow(s);
    const ref = prior?.session_ref ?? `S${String((next += 1)).padStart(4, "0")}`;
    const turns = s.turns.map((t, i) => ({ turn_ref: `T${String(i + 1).padStart(4, "0")}`, turn_start_line: t.turn_start_line, turn_end_line: t.turn_end_line }));
    rows.set(ref, {
      session_ref: ref,
      source: s.source,
      source_session_id: s.sourceSessionId,
      session_path: `sessions/${s.source}/${s.fileName}`,
      target_start_line: turns[0]!.turn_start_line,
      target_end_line: turns[turns.length - 1]!.turn_end_line,
      turns,
    });
  }
  for (const machines of bySession.values()) for (const row of machines.values()) if (row.session_ref && !rows.has(row.session_ref)) rows.set(row.session_ref, row as IndexRow);
  return [...rows.values()].sort((a, b) => cmp(a.session_ref, b.session_ref));
}

/**
 * Serializes rows like prompt-diary's writer (contract §1.4): Python `json.dumps(sort_keys=True)`
 * with default separators `", "` and `": "`, non-ASCII kept, one row per line, trailing newline.
 */
export function serializeIndex(rows: IndexRow[]): string {
  return rows.map((r) => pythonJson(r)).join("\n") + (rows.length > 0 ? "\n" : "");
}

/** `json.dumps(value, ensure_ascii=False, sort_keys=True)` for plain JSON values. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}: ${pythonJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(", ")}}`;
  }
  return JSON.stringify(value);
}

function key(s: PlannedSession): string[] {
  return [s.source, s.sourceSessionId, `sessions/${s.source}/${s.fileName}`];
}

function cmp(a: string | string[], b: string | string[]): number {
  const x = Array.isArray(a) ? a : [a];
  const y = Array.isArray(b) ? b : [b];
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

function refNumber(ref: string | undefined): number {
  const m = ref ? /^S(\d+)$/.exec(ref) : null;
  return m ? Number(m[1]) : 0;
}
