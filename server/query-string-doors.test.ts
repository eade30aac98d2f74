import { beforeAll, describe, expect, it } from "vitest";

import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { tokenChartHandler } from "@/server/http/analysis";
import { listAuditCallsHandler } from "@/server/http/audit";
import { getEvidenceCardHandler } from "@/server/http/evidence";
import { projectSearchHandler, sessionTimelineHandler } from "@/server/http/forensics";
import { listSessionsHandler, sessionLinesHandler, sessionTurnsHandler } from "@/server/http/sessions";

/*
 * Issue 35 item 8: a URL's query values are text by nature, so the dashboard's GET routes read
 * digits as numbers where they read the URL, and nothing else: the tools themselves take JSON
 * numbers only (server/doors.test.ts), so " 7 ", "1e1" or "-1" is the field's invalid_input error.
 */

beforeAll(async () => {
  const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(30), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 30 }] }]);
  process.env.CASEFILE_WORKSPACE = root;
  await refreshCatalog(createCoreContext(root));
  await fillFullText(createCoreContext(root));
});

const project = { params: Promise.resolve({ projectKey: TEST_PROJECT_KEY }) };
const session = { params: Promise.resolve({ projectKey: TEST_PROJECT_KEY, sessionRef: "S0001" }) };
const url = (path: string) => new Request(`http://127.0.0.1${path}`);
const P = `/api/projects/${TEST_PROJECT_KEY}`;

/** Each GET route with a number in its query: the route, its handler call, and the field the value reaches. */
const ROUTES: [string, (value: string) => Promise<Response>, string][] = [
  ["sessions ?limit", (v) => listSessionsHandler(url(`${P}/sessions?limit=${v}`), project), "limit"],
  ["lines ?start", (v) => sessionLinesHandler(url(`${P}/sessions/S0001/lines?start=${v}&end=3`), session), "start_line"],
  ["turns ?limit", (v) => sessionTurnsHandler(url(`${P}/sessions/S0001/turns?limit=${v}`), session), "limit"],
  ["evidence ?turns_limit", (v) => getEvidenceCardHandler(url(`${P}/sessions/S0001/evidence?turns_offset=0&turns_limit=${v}`), session), "turns_limit"],
  ["timeline ?offset", (v) => sessionTimelineHandler(url(`${P}/sessions/S0001/timeline?offset=${v}`), session), "offset"],
  ["search ?offset", (v) => projectSearchHandler(url(`${P}/search?pattern=message&offset=${v}`), project), "offset"],
  ["token-chart ?threshold", (v) => tokenChartHandler(url(`${P}/sessions/S0001/token-chart?threshold=${v}`), session), "threshold"],
  ["audit ?max_entries", (v) => listAuditCallsHandler(url(`/api/audit?max_entries=${v}`)), "max_entries"],
];

describe("GET routes read query-string numbers strictly", () => {
  it.each(ROUTES)("%s: digits are a number", async (_label, get) => {
    const response = await get("2");
    expect(response.status).toBe(200);
    // ok, or the evidence card's "missing" (the session has no card yet): a result, not a rejection.
    expect(((await response.json()) as { status: string }).status).toMatch(/^(ok|missing)$/);
  });

  it.each(ROUTES)("%s: anything but digits is the field's invalid_input", async (_label, get, field) => {
    for (const value of ["%207%20", "1e1", "-1", "0x2"]) {
      const response = await get(value);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; fieldErrors: Record<string, string[]> } };
      expect(body.error.code).toBe("invalid_input");
      expect(body.error.fieldErrors[field]).toEqual([expect.stringMatching(new RegExp(`^${field} must be a whole number \\(a JSON number\\), not the string `))]);
    }
  });
});
