/** The dashboard server in team mode (issue 39), over real HTTP, with tokens in a real PostgreSQL. */
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { requestActor } from "@/lib/context";
import { getLedger } from "@/lib/ledger/ledger-store";
import { ACTOR_HEADER } from "@/lib/team/auth";
import { openTeamDatabase } from "@/lib/team/database";
import { authenticateToken, createToken, revokeToken } from "@/lib/team/tokens";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callToolHandler } from "@/server/http/tools";
import { bindingRefusal, createDashboardServer, type DashboardServerOptions } from "@/server/serve/dashboard-server";

/** What the stand-in for Next saw of each request it was handed. */
type Seen = { method: string; url: string; actorHeader: string | undefined; actor: unknown };

/**
 * The stand-in for Next: `POST /api/tools/<name>` goes to the real HTTP tool door (the registry,
 * the audit ledger); anything else is answered 200 with what the handler saw.
 */
function fakeNext(seen: Seen[]) {
  return async (request: IncomingMessage, response: ServerResponse) => {
    seen.push({ method: request.method!, url: request.url!, actorHeader: request.headers[ACTOR_HEADER] as string | undefined, actor: requestActor() });
    const tool = /^\/api\/tools\/([^/?]+)$/.exec(request.url!)?.[1];
    if (request.method === "POST" && tool) {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const answer = await callToolHandler(new Request(`http://${request.headers.host}${request.url}`, { method: "POST", body: Buffer.concat(chunks), headers: { host: request.headers.host! } }), {
        params: Promise.resolve({ tool }),
      });
      response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
      return;
    }
    response.writeHead(200, { "content-type": "text/plain" }).end("next");
  };
}

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request over real HTTP(S); never follows redirects. */
function send(base: string, method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(target, base);
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(url, { method, headers: { ...headers, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}) }, rejectUnauthorized: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("where a dashboard may listen (issue 39, Security)", () => {
  it("binds loopback freely; beyond it only a team server, and only with TLS or --insecure-http", () => {
    for (const host of ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"]) expect(bindingRefusal(host, { team: false, tls: false, insecureHttp: false }), host).toBeNull();
    expect(bindingRefusal("0.0.0.0", { team: false, tls: true, insecureHttp: true })).toMatch(/only a team server \(--database URL\)/);
    expect(bindingRefusal("0.0.0.0", { team: true, tls: false, insecureHttp: false })).toMatch(/--tls-cert FILE --tls-key FILE .* or --insecure-http/);
    expect(bindingRefusal("10.1.2.3", { team: true, tls: true, insecureHttp: false })).toBeNull();
    expect(bindingRefusal("10.1.2.3", { team: true, tls: false, insecureHttp: true })).toBeNull();
  });
});

describe("the local dashboard server (no team)", () => {
  it("removes a client's actor header and hands the request on, with no actor", async () => {
    const seen: Seen[] = [];
    const server = createDashboardServer(fakeNext(seen));
    const port = await listen(server);
    try {
      const reply = await send(`http://127.0.0.1:${port}`, "GET", "/api/overview", { [ACTOR_HEADER]: '{"machine":"evil","role":"admin"}' });
      expect(reply.status).toBe(200);
      expect(seen).toEqual([{ method: "GET", url: "/api/overview", actorHeader: undefined, actor: undefined }]);
    } finally {
      server.close();
    }
  });
});

describePostgres("the team server's door (issue 39)", () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  let pool: pg.Pool;
  let server: http.Server | https.Server;
  let base = "";
  const seen: Seen[] = [];
  const tokens: Record<"read" | "push" | "admin" | "revoked", { token: string; token_id: string }> = {} as never;
  let workspace = "";

  beforeAll(async () => {
    workspace = await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]);
    process.env.CASEFILE_WORKSPACE = workspace;
    db = await freshTestDatabase("cf_team_server");
    pool = await openTeamDatabase(db.url);
    tokens.read = await createToken(pool, { machine: "reviewer", role: "read" });
    tokens.push = await createToken(pool, { machine: "laptop-1", role: "push" });
    tokens.admin = await createToken(pool, { machine: "ops", role: "admin" });
    tokens.revoked = await createToken(pool, { machine: "old", role: "admin" });
    await revokeToken(pool, tokens.revoked.token_id);
    const team: DashboardServerOptions["team"] = { authenticate: (token) => authenticateToken(pool, token) };
    server = createDashboardServer(fakeNext(seen), { team });
    base = `http://127.0.0.1:${await listen(server)}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await db?.drop();
  });

  const bearer = (which: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[which].token}` });

  it("answers 401 to no token, a wrong one and a revoked one, and Next never sees them", async () => {
    seen.length = 0;
    const cases: [string, Record<string, string>][] = [
      ["none", {}],
      ["wrong", { authorization: `Bearer cft_${"x".repeat(43)}` }],
      ["malformed", { authorization: "Bearer nope" }],
      ["revoked", bearer("revoked")],
      ["wrong cookie", { cookie: `casefile_token=cft_${"y".repeat(43)}` }],
      ["spoofed actor", { [ACTOR_HEADER]: '{"machine":"evil","role":"admin"}' }],
    ];
    for (const [name, headers] of cases) {
      for (const [method, target, body] of [["GET", "/api/overview", undefined], ["POST", "/api/tools/write_evidence", "{}"], ["PUT", "/api/team/push/file?root_id=r&path=a&offset=0", "bytes"]] as const) {
        const reply = await send(base, method, target, headers, body);
        expect(reply.status, `${name} ${method} ${target}`).toBe(401);
        expect(JSON.parse(reply.body), name).toMatchObject({ error: { code: "unauthorized" } });
        expect(reply.headers["www-authenticate"]).toBe('Bearer realm="casefile"');
      }
    }
    expect(seen).toEqual([]);
    // Nothing reached the tools: the audit ledger has no call.
    expect((await getLedger(workspace).read()).entries.filter((e) => e.entry.kind === "tool_call_started")).toEqual([]);
  });

  it("sends a browser's page navigation without a token to the login page, which passes without one", async () => {
    seen.length = 0;
    const navigation = await send(base, "GET", "/projects", { "sec-fetch-mode": "navigate" });
    expect([navigation.status, navigation.headers.location]).toEqual([303, "/login?next=%2Fprojects"]);
    const home = await send(base, "GET", "/", { "sec-fetch-mode": "navigate" });
    expect(home.headers.location).toBe("/login");
    const login = await send(base, "GET", "/login");
    expect(login.status).toBe(200);
    expect(seen.map((s) => [s.url, s.actor])).toEqual([["/login", undefined]]);
  });

  it("a page opened with a sign-in cookie whose token was revoked goes to the login form, which says so, and the cookie is cleared", async () => {
    seen.length = 0;
    const navigation = await send(base, "GET", "/projects", { "sec-fetch-mode": "navigate", cookie: `casefile_token=${encodeURIComponent(tokens.revoked.token)}` });
    expect(navigation.status).toBe(303);
    expect(navigation.headers.location).toBe("/login?failed=1&next=%2Fprojects");
    expect(String(navigation.headers["set-cookie"])).toMatch(/^casefile_token=; .*Max-Age=0/);
    // A script's call with the same cookie still gets the 401 it can read.
    expect((await send(base, "GET", "/projects", { cookie: `casefile_token=${encodeURIComponent(tokens.revoked.token)}` })).status).toBe(401);
    expect(seen).toEqual([]);
  });

  it("the login page runs as the signed-in actor only for a valid token (the page offers Sign out to it alone)", async () => {
    seen.length = 0;
    await send(base, "GET", "/login", bearer("read"));
    await send(base, "GET", "/login", { authorization: `Bearer cft_${"A".repeat(43)}` });
    await send(base, "GET", "/login", { [ACTOR_HEADER]: '{"machine":"evil","role":"admin"}' });
    expect(seen.map((s) => [s.actor, s.actorHeader === undefined ? undefined : JSON.parse(s.actorHeader).machine])).toEqual([
      [{ machine: "reviewer", role: "read" }, "reviewer"],
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it("after signing in, goes back to the page opened before (a path on this site only)", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" };
    const signIn = (next: string, token = tokens.read.token) => send(base, "POST", "/login", form, `token=${encodeURIComponent(token)}&next=${encodeURIComponent(next)}`);
    expect((await signIn("/projects/p?sort=risk")).headers.location).toBe("/projects/p?sort=risk");
    for (const unsafe of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/login"]) expect((await signIn(unsafe)).headers.location, unsafe).toBe("/");
    // A refused token goes back to the form, keeping where to return.
    expect((await signIn("/usage", "cft_nope")).headers.location).toBe("/login?failed=1&next=%2Fusage");
  });

  it("hands an authenticated request to Next as its actor, in a header it sets itself", async () => {
    seen.length = 0;
    const reply = await send(base, "GET", "/api/overview", { ...bearer("read"), [ACTOR_HEADER]: '{"machine":"evil","role":"admin"}' });
    expect(reply.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]!.actorHeader!)).toEqual({ token_id: tokens.read.token_id, machine: "reviewer", role: "read" });
    expect(seen[0]!.actor).toEqual({ machine: "reviewer", role: "read" });
  });

  it("refuses with 403 what a role may not do: read cannot push or call a writing tool; push can, and its writes carry its actor", async () => {
    seen.length = 0;
    const push = await send(base, "PUT", "/api/team/push/file?root_id=r&path=a&offset=0", bearer("read"), "bytes");
    expect(push.status).toBe(403);
    expect(JSON.parse(push.body)).toMatchObject({ error: { code: "forbidden" } });
    const sneaky = await send(base, "PUT", "/api/team/push/../../api/tools/x", bearer("read"), "bytes");
    expect(sneaky.status).toBe(403);
    const del = await send(base, "DELETE", "/api/overview", bearer("push"));
    expect(del.status).toBe(403);
    expect(seen).toEqual([]);
    // MCP over HTTP passes the door for every role: its tools are checked like /api/tools'.
    expect((await send(base, "POST", "/api/mcp", bearer("read"), "{}")).status).toBe(200);
    expect(seen.map((s) => s.url)).toEqual(["/api/mcp"]);

    const write = { project_key: TEST_PROJECT_KEY, session_ref: "S0001", evidence_chain: [] };
    const refused = await send(base, "POST", "/api/tools/write_evidence", bearer("read"), JSON.stringify(write));
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: "forbidden", message: expect.stringMatching(/read token may call read-only tools only/) } });
    const read = await send(base, "POST", "/api/tools/list_projects", bearer("read"), "{}");
    expect(read.status).toBe(200);
    const allowed = await send(base, "POST", "/api/tools/write_evidence", bearer("push"), JSON.stringify(write));
    expect(allowed.status).not.toBe(403);
    const pushed = await send(base, "PUT", "/api/team/push/file?root_id=r&path=a&offset=0", bearer("push"), "bytes");
    expect(pushed.status).toBe(200);

    const ledger = (await getLedger(workspace).read()).entries.map((e) => e.entry);
    const calls = ledger.flatMap((e) => (e.kind === "tool_call_started" ? [{ tool: e.tool_name, actor: e.actor, receipt: e.receipt_id }] : []));
    expect(calls.map(({ tool, actor }) => ({ tool, actor }))).toEqual([
      { tool: "write_evidence", actor: { machine: "reviewer", role: "read" } },
      { tool: "list_projects", actor: { machine: "reviewer", role: "read" } },
      { tool: "write_evidence", actor: { machine: "laptop-1", role: "push" } },
    ]);
    const denied = ledger.find((e) => e.kind === "tool_call_finished" && e.receipt_id === calls[0]!.receipt);
    expect(denied).toMatchObject({ result: "denied", status: "forbidden" });
    expect(denied?.kind === "tool_call_finished" && denied.policy_decisions.find((d) => d.policy_id === "team.role")).toMatchObject({ decision: "deny" });
  });

  it("signs a browser in with the login form: an HttpOnly, SameSite=Strict cookie the server then accepts", async () => {
    const bad = await send(base, "POST", "/login", { "content-type": "application/x-www-form-urlencoded" }, "token=cft_nope");
    expect([bad.status, bad.headers.location, bad.headers["set-cookie"]]).toEqual([303, "/login?failed=1", undefined]);
    const foreign = await send(base, "POST", "/login", { "content-type": "application/x-www-form-urlencoded", origin: "http://evil.example" }, `token=${tokens.read.token}`);
    expect([foreign.status, foreign.headers["set-cookie"]]).toEqual([403, undefined]);
    // A browser says where the form came from in Sec-Fetch-Site; its Origin is "null" for a page with Referrer-Policy no-referrer (Chromium).
    const form = { "content-type": "application/x-www-form-urlencoded", origin: "null" };
    const ownPage = await send(base, "POST", "/login", { ...form, "sec-fetch-site": "same-origin" }, `token=${encodeURIComponent(tokens.read.token)}`);
    expect([ownPage.status, ownPage.headers.location]).toEqual([303, "/"]);
    const otherSite = await send(base, "POST", "/login", { ...form, "sec-fetch-site": "cross-site" }, `token=${encodeURIComponent(tokens.read.token)}`);
    expect([otherSite.status, otherSite.headers["set-cookie"]]).toEqual([403, undefined]);
    const good = await send(base, "POST", "/login", { "content-type": "application/x-www-form-urlencoded" }, `token=${encodeURIComponent(tokens.read.token)}`);
    expect([good.status, good.headers.location]).toEqual([303, "/"]);
    const cookie = good.headers["set-cookie"]![0]!;
    expect(cookie).toMatch(/^casefile_token=cft_[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    seen.length = 0;
    const page = await send(base, "GET", "/projects", { cookie: cookie.split(";")[0]! });
    expect(page.status).toBe(200);
    expect(seen[0]!.actor).toEqual({ machine: "reviewer", role: "read" });
    const out = await send(base, "POST", "/logout", { cookie: cookie.split(";")[0]! });
    expect([out.status, out.headers["set-cookie"]?.[0]]).toEqual([303, expect.stringMatching(/^casefile_token=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict/)]);
  });

  it("serves HTTPS with --tls-cert/--tls-key, its cookie Secure", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-tls-"));
    const [cert, key] = [path.join(dir, "cert.pem"), path.join(dir, "key.pem")];
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1"], { stdio: "ignore" });
    const secure = createDashboardServer(fakeNext([]), { team: { authenticate: (token) => authenticateToken(pool, token) }, tls: { cert: await fs.readFile(cert), key: await fs.readFile(key) } });
    const url = `https://127.0.0.1:${await listen(secure)}`;
    try {
      expect((await send(url, "GET", "/api/overview")).status).toBe(401);
      expect((await send(url, "GET", "/api/overview", bearer("read"))).status).toBe(200);
      const login = await send(url, "POST", "/login", { "content-type": "application/x-www-form-urlencoded" }, `token=${tokens.read.token}`);
      expect(login.headers["set-cookie"]![0]).toMatch(/; Secure$/);
    } finally {
      secure.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
