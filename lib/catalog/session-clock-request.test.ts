/** Issue 36 items 5 and 6: every door gives a session the same clock, and "the user's request" is the first real prompt. */
import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { catalogListSessions } from "@/lib/catalog/queries";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { sessionOverview } from "@/lib/forensics/overview";
import type { SessionOverviewResult } from "@/lib/forensics/schema";
import { sessionAuditEvents } from "@/lib/ledger/session-audit";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { getSessionDetail } from "@/lib/workspace/projects";
import type { SessionListItem } from "@/lib/workspace/schema";
import { CountedUsages } from "@/lib/workspace/session-usage";
import { syncWorkspace } from "@/lib/workspace/sync";

const CORPUS = path.join(SHARED_DIR, "corpus", "claude-code");
/** A real Claude Code 2.1 session (63 lines): prompts, tools, a compaction, then `/compact` and its ANSI output. */
const FASTHOOKS = path.join(CORPUS, "misc/oneryalcin__fasthooks/specs/data/sample_main_transcript.jsonl");
/** A real session opening with Claude Code's `summary` record. */
const SUMMARIZED = path.join(CORPUS, "phantom-reads/session-examples/2.0.60-good/2caf2337-66bf-41d1-ad27-9d2cab7bd2dc.jsonl");

const IDS = { outOfOrder: "11111111-1111-4111-8111-111111111111", context: "22222222-2222-4222-8222-222222222222", titled: "33333333-3333-4333-8333-333333333333" };

type Line = Record<string, unknown>;

describe.skipIf(!HAS_SHARED)(`one clock and one request through every door${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  let ctx: CoreContext;
  let projectKey: string;
  const refOf = new Map<string, string>();

  beforeAll(async () => {
    const real = (await fs.readFile(FASTHOOKS, "utf8")).trimEnd().split("\n").map((l) => JSON.parse(l) as Line);
    const at = (n: number) => structuredClone(real[n - 1]!);
    // Out of order as a resumed file is: lines 27-63 then 1-26 (its first line is not its start, its
    // last timestamp not its end; the real file already goes back at line 61), with one naive and one
    // unparseable timestamp (left out) and a snapshot whose nested time is years earlier (not the record's).
    const rotated = [...real.slice(26), ...real.slice(0, 26)].map((l) => structuredClone(l));
    rotated.find((l) => l.subtype === "stop_hook_summary" && l.timestamp === "2026-01-02T19:19:03.217Z")!.timestamp = "2026-01-02 23:59:00";
    rotated.find((l) => l.subtype === "stop_hook_summary" && l.timestamp === "2026-01-02T19:19:15.181Z")!.timestamp = "yesterday";
    const snapshot = rotated.find((l) => l.type === "file-history-snapshot")!;
    (snapshot.snapshot as Line).timestamp = "2019-05-01T00:00:00.000Z";
    // `/context` (the real `/compact` record renamed), its caveat and its ANSI output, then the real first prompt.
    const context = at(62);
    (context.message as Line).content = String((context.message as Line).content).replace(/compact/g, "context");
    const opening = [at(61), context, at(63), ...real.slice(1, 8)];
    // Only a slash command, its caveat and output, and Claude Code's title for this very session
    // (its leaf is the output record), then a foreign title (another session's leaf): contract §2.7.
    const [foreign] = (await fs.readFile(SUMMARIZED, "utf8")).split("\n", 1).map((l) => JSON.parse(l) as Line);
    const own = { ...foreign!, leafUuid: at(63).uuid };
    const titled = [own, { ...foreign!, summary: "Another session's title" }, at(61), at(62), at(63)];

    const sources = await makeTempDir("casefile-clock-src-");
    const dir = path.join(sources, "-home-u-demo");
    await fs.mkdir(dir, { recursive: true });
    for (const [id, lines] of [[IDS.outOfOrder, rotated], [IDS.context, opening], [IDS.titled, titled]] as const) {
      const text = lines.map((l) => JSON.stringify("sessionId" in l ? { ...l, sessionId: id } : l)).join("\n");
      await fs.writeFile(path.join(dir, `${id}.jsonl`), `${text}\n`);
    }
    ctx = createCoreContext(await makeTempDir("casefile-clock-ws-"), { now: () => new Date("2026-11-28T00:00:00Z") });
    const counted = new CountedUsages();
    await syncWorkspace(ctx, { sources: { claude: [sources], codex: [], demo: false }, counted });
    // The catalog's rows take the usage the sync counted from the records (the other span source).
    await refreshCatalog(ctx, { counted });
    closeCatalog(ctx);
    const [project] = (await loadWorkspace(ctx)).projects;
    projectKey = project!.projectKey;
    for (const row of project!.rows) refOf.set(row.source_session_id, row.session_ref);
    expect([...refOf.keys()].sort()).toEqual(Object.values(IDS).sort());
  }, 120_000);

  /** The session's row from `list_sessions` read from the catalog and from the files. */
  async function rows(id: string): Promise<SessionListItem[]> {
    const input = { project_key: projectKey, limit: 500 };
    const out: SessionListItem[] = [];
    for (const listed of [await catalogListSessions(ctx, input), await listSessions(ctx, input)]) {
      if (listed.status !== "ok") throw new Error(JSON.stringify(listed));
      out.push(listed.sessions.find((s) => s.source_session_id === id)!);
    }
    return out;
  }

  async function overview(id: string): Promise<SessionOverviewResult> {
    return (await sessionOverview(ctx, { project_key: projectKey, session_ref: refOf.get(id)! }, sessionAuditEvents)) as SessionOverviewResult;
  }

  it("a session whose timestamps are out of order has the same start, end and duration in list_sessions, the catalog, session_overview and the viewer header", async () => {
    const clock = { started_at: "2026-01-02T19:18:31.028Z", ended_at: "2026-01-02T19:21:02.108Z", duration_seconds: 151 };
    for (const row of await rows(IDS.outOfOrder)) expect({ started_at: row.started_at, ended_at: row.ended_at, duration_seconds: row.duration_seconds }).toEqual(clock);
    const { summary } = await overview(IDS.outOfOrder);
    expect({ started_at: summary.started_at, ended_at: summary.ended_at, duration_seconds: summary.duration_seconds, duration: summary.duration }).toEqual({ ...clock, duration: "3 minutes" });
    const detail = await getSessionDetail(ctx, projectKey, refOf.get(IDS.outOfOrder)!, undefined, { turns: false });
    expect(detail.facts).toMatchObject({ started_at: clock.started_at, duration_seconds: clock.duration_seconds });
  });

  it("a session opening with /context and its ANSI output, then a real prompt: the first user message and the about are the prompt", async () => {
    for (const row of await rows(IDS.context)) expect(row.first_user_message).toBe("can you run a command ls -la");
    const { summary } = await overview(IDS.context);
    // Its one prompt: `/context` and its output are not more messages the user sent.
    expect(summary.about).toMatch(/^User asked: "can you run a command ls -la"\. The agent /);
    expect(summary.about).not.toMatch(/Compacted|context/);
  });

  it("a session with only a slash command and a summary record: Claude Code's title for it, never a foreign one", async () => {
    for (const row of await rows(IDS.titled)) expect(row.first_user_message).toBe("WSD Platform Initialization & Manifest Pipeline Review");
    const { summary } = await overview(IDS.titled);
    expect(summary.about).toMatch(/^No prompt was typed; Claude Code titled the session "WSD Platform Initialization & Manifest Pipeline Review"\./);
    expect(summary.about).not.toContain("Another session's title");
  });
});
