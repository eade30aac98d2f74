/** Types of a Codex rollout's `session_meta` as selection reads it. */
import type { JsonObject } from "@/lib/sources/common/json-object";
import { legacyEnvironmentCwd } from "@/lib/sources/codex/legacy";
import {
  CODEX_LEGACY_SDK_ORIGINATOR,
  CODEX_REPORT_ORIGINATOR,
  codexRecordTimestamp,
  codexSubagentReason,
  objectField,
  stringField,
} from "@/lib/sources/codex/records";

/** A legacy `codex_python_sdk` session_meta that needs the workspace-provenance check (§1.8 step 2). */
export type LegacySdkCandidate = { cwd: string; timestampMs: number };

/**
 * Session-level facts gathered from `session_meta` and `turn_context` records while streaming
 * (contract §1.3, §1.4, §1.8 steps 1, 2 and 5). Every `session_meta` with an object payload
 * counts; later ones override the id, the parent id and the cwd, as in prompt-diary.
 */
export class CodexSessionMeta {
  /** Number of `session_meta` records with an object payload (a fork needs exactly one). */
  sessionMetaCount = 0;
  /** Last non-blank `session_meta.payload.id`. */
  sessionMetaId: string | null = null;
  /** `forked_from_id` of the last `session_meta` (non-blank string), else null. */
  forkedFromId: string | null = null;
  /** True once a `session_meta` had a `forked_from_id` that is not null and not a non-blank string. */
  ambiguousParent = false;
  /** Why the session is a child (subagent) session, or null. */
  subagentReason: string | null = null;
  /** Why the session is a prompt-diary report session (originator `prompt_diary`), or null. */
  reportReason: string | null = null;
  /** `codex_python_sdk` session_metas with an absolute-or-not cwd and a timestamp, to check on disk. */
  readonly legacySdkCandidates: LegacySdkCandidate[] = [];
  private sessionMetaCwd: string | null = null;
  private turnContextCwd: string | null = null;
  private legacyCwd: string | null = null;

  /** Observes one (normalized) record; `legacy` enables the legacy cwd fallback. */
  observe(record: JsonObject, legacy: boolean): void {
    const type = stringField(record, "type");
    const payload = objectField(record, "payload");
    if (payload === null) return;
    if (type === "session_meta") this.observeSessionMeta(record, payload);
    else if (type === "turn_context") this.turnContextCwd ??= stringField(payload, "cwd");
    else if (legacy && this.legacyCwd === null) this.legacyCwd = legacyEnvironmentCwd(record);
  }

  /** True while the file may still be a fork with provable ancestry (≤ 1 session_meta, a well-typed parent). */
  forkCandidate(): boolean {
    return this.sessionMetaCount <= 1 && !this.ambiguousParent;
  }

  /**
   * The project root (contract §1.3): the last `session_meta` cwd, else the first `turn_context`
   * cwd, else (legacy files only, a Casefile extension) the `<cwd>` of the first
   * `<environment_context>` message; null when none.
   */
  projectRoot(): string | null {
    return this.sessionMetaCwd ?? this.turnContextCwd ?? this.legacyCwd;
  }

  private observeSessionMeta(record: JsonObject, payload: JsonObject): void {
    this.sessionMetaCount += 1;
    this.forkedFromId = stringField(payload, "forked_from_id");
    const parent = payload.forked_from_id;
    if (parent !== undefined && parent !== null && this.forkedFromId === null) this.ambiguousParent = true;
    this.sessionMetaId = stringField(payload, "id") ?? this.sessionMetaId;
    this.sessionMetaCwd = stringField(payload, "cwd") ?? this.sessionMetaCwd;
    this.subagentReason ??= codexSubagentReason(payload);
    const originator = stringField(payload, "originator");
    if (originator === CODEX_REPORT_ORIGINATOR) {
      this.reportReason ??= `prompt-diary report-generation session (session_meta originator "${CODEX_REPORT_ORIGINATOR}")`;
    }
    const cwd = stringField(payload, "cwd");
    const timestampMs = codexRecordTimestamp(record);
    if (originator === CODEX_LEGACY_SDK_ORIGINATOR && cwd !== null && timestampMs !== null) {
      this.legacySdkCandidates.push({ cwd, timestampMs });
    }
  }
}
