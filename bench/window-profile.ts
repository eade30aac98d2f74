/**
 * Where a warm 2,000-line compact window's time goes (issue 13), in one process, not a test:
 * `npx tsx bench/window-profile.ts`. Per round it prints the tool's own run (sliced from the
 * persisted compact blocks), the same call through the registry (the audit ledger's canonical
 * JSON, SHA-256 and blob write of the ~1.2 MB output included), the door's JSON.stringify, and
 * the canonical JSON and hash alone. Uses the real-shaped workspace of `bench/real-shaped.ts`
 * (`CASEFILE_BENCH_WORKSPACE=DIR` for another one).
 */
import { performance } from "node:perf_hooks";
import { createCoreContext } from "@/lib/context";
import { callTool, serializeToolResult } from "@/lib/tools/registry";
import { canonicalJson, sha256Text } from "@/lib/json/canonical-json";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { ensureRealShapedWorkspace } from "./real-shaped";

const ws = await ensureRealShapedWorkspace({ workspace: process.env.CASEFILE_BENCH_WORKSPACE }); // one workspace per helper
const ctx = createCoreContext(ws.workspace);
const s = ws.claudeSession;
const mid = Math.floor(s.lines / 2);
const input = { project_key: s.project_key, session_ref: s.session_ref, start_line: mid, end_line: mid + 1999, mode: "compact" };
for (let i = 0; i < 8; i++) {
  const t0 = performance.now();
  const raw = await readSessionLines(ctx, input as never);
  const t1 = performance.now();
  const res = await callTool(ctx, "read_session_lines", input, { door: "http", client: "prof" });
  const t2 = performance.now();
  const text = serializeToolResult(res);
  const t3 = performance.now();
  const c = canonicalJson(res);
  const t4 = performance.now();
  sha256Text(c);
  const t5 = performance.now();
  console.log(`run ${(t1 - t0).toFixed(0)} ms; traced call ${(t2 - t1).toFixed(0)} ms; stringify ${(t3 - t2).toFixed(0)} ms (${(text.length / 1e6).toFixed(2)} MB); canonical ${(t4 - t3).toFixed(0)} ms; sha ${(t5 - t4).toFixed(0)} ms; ${raw.status}`);
}
