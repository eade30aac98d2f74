/** The session reader's registered tools: `read_session_lines` and the viewer's window. */
import * as z from "zod";

import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { READ_MODES } from "@/lib/session-reader/schema";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { contractField, contractInput } from "@/lib/tools/contract-fields";
import { defineTool } from "@/lib/tools/define-tool";
import { wholeNumber } from "@/lib/tools/input-fields";

/**
 * `read_session_lines` (seed 000). Its fields are contract fields: seed 000 defines the message
 * of every bad value ("start_line must be an integer", range checks in order), so the tool
 * checks them itself and every door returns those exact errors.
 */
export const readSessionLinesTool = defineTool({
  name: "read_session_lines",
  title: "Read session lines",
  description:
    "Read a physical line range (1-based, inclusive) of one indexed session, resolved by (project_key, session_ref). Compact mode (default) returns one bounded structured record per line, at most 2000 lines; full mode returns the raw JSONL lines, at most 100. Read-only.",
  readOnly: true,
  input: contractInput(
    {
      project_key: contractField({ type: "string", description: "Project directory name under projects/ in the prepared workspace." }),
      session_ref: contractField({ type: "string", description: "Session handle from sessions.index.jsonl, e.g. S0001." }),
      start_line: contractField({ type: "integer", description: "First physical line to read, 1-based, inclusive." }),
      end_line: contractField({ type: "integer", description: "Last physical line to read, 1-based, inclusive." }),
      mode: contractField({
        type: "string",
        enum: [...READ_MODES],
        default: "compact",
        description:
          "compact (default): one bounded structured record per line, at most 2000 lines. full: verbatim raw JSONL lines, at most 100 lines; full returns raw lines and can be very large, so use it only for a narrow range where exact raw content is necessary.",
      }),
    },
    ["project_key", "session_ref", "start_line", "end_line"],
  ),
  inputHint: "pass {project_key, session_ref, start_line, end_line, mode?}",
  run: (ctx, input) => readSessionLines(ctx, input),
});

const viewerLinesInput = z.object({
  project_key: z.string().min(1),
  session_ref: z.string().min(1),
  start_line: wholeNumber(),
  end_line: wholeNumber(),
  mode: z.enum(READ_MODES).default("compact"),
  agent_id: z.string().min(1).optional(),
});

/**
 * The dashboard viewer's line window (issue 8: the viewer's reads are tool calls too): the
 * records of `read_session_lines` for the main session or one subagent transcript, with huge
 * full-mode lines clipped for display.
 */
export const readViewerLinesTool = defineTool({
  name: "read_viewer_lines",
  title: "Read viewer lines",
  description: "One window of a session's lines for the dashboard viewer (main transcript or a subagent's, agent_id). Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: viewerLinesInput,
  inputHint: "start_line and end_line are integers; mode compact or full",
  run: (ctx, input) =>
    readViewerLines(ctx, { projectKey: input.project_key, sessionRef: input.session_ref, start: input.start_line, end: input.end_line, mode: input.mode, agent: input.agent_id }),
});

export const sessionReaderTools = [readSessionLinesTool, readViewerLinesTool];
