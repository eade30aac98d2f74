/** Types of the workspace's status (issue 36 item 2: a first start you can watch). */
import * as z from "zod";

/** What the workspace pipeline is doing: syncing from the sources, writing the catalog's rows, filling the full-text index, or nothing worth watching. */
export const WORKSPACE_PHASES = ["syncing", "cataloguing", "indexing", "ready"] as const;
export const workspacePhaseSchema = z.enum(WORKSPACE_PHASES);
export type WorkspacePhase = z.infer<typeof workspacePhaseSchema>;

/** The last failure of a pipeline stage in this process, until that stage runs again without one. */
export const pipelineErrorSchema = z.object({
  /** The stage that failed, as the server's log names it: `sync`, `catalog refresh`, `full-text index`, `risk`, … */
  stage: z.string(),
  message: z.string(),
  /** ISO time of the failure. */
  at: z.string(),
});
export type PipelineError = z.infer<typeof pipelineErrorSchema>;

/**
 * `workspace_status` (and `GET /api/workspace-status`): the phase, its progress (`done` of
 * `total`: source files analysed while syncing, sessions catalogued, sessions indexed for search
 * while indexing and when ready), the full-text index's coverage, when the work began (null when
 * ready) and the last error of a stage, if any.
 */
export const workspaceStatusSchema = z.object({
  phase: workspacePhaseSchema,
  done: z.number().int(),
  total: z.number().int(),
  sessions_indexed: z.number().int(),
  sessions_total: z.number().int(),
  started_at: z.string().nullable(),
  last_error: pipelineErrorSchema.nullable(),
});
export type WorkspaceStatus = z.infer<typeof workspaceStatusSchema>;
