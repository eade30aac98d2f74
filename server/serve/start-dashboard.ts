/**
 * Entry of the dashboard server process (`casefile serve` / `npm start` spawn it, bundled by
 * lib/jsonl/workers' bundledEntry, in place of `next start`): Next's production request handler
 * behind server/serve/dashboard-server's http.Server.
 *
 *   node <bundle> --dir <app dir> --hostname 127.0.0.1 --port <port> [--tls-cert F --tls-key F] [--insecure-http]
 *
 * NODE_ENV must be `production` in its environment (serve-command sets it, as `next start` does).
 * With CASEFILE_DATABASE_URL in its environment it is a team server (issue 39): the team schema is
 * migrated first, then every request needs a token (server/serve/dashboard-server's team mode).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

import next from "next";

import { authenticateToken } from "@/lib/team/tokens";
import { openTeamDatabase } from "@/lib/team/database";
import { bindingRefusal, createDashboardServer, type DashboardServerOptions } from "@/server/serve/dashboard-server";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    hostname: { type: "string", default: "127.0.0.1" },
    port: { type: "string" },
    "tls-cert": { type: "string" },
    "tls-key": { type: "string" },
    "insecure-http": { type: "boolean", default: false },
  },
});
const port = Number(values.port);
if (!values.dir || !Number.isInteger(port) || port <= 0 || port > 65535 || Boolean(values["tls-cert"]) !== Boolean(values["tls-key"])) {
  process.stderr.write("usage: start-dashboard --dir <app dir> --hostname <host> --port <port>\n");
  process.exit(2);
}
const hostname = values.hostname!;
const databaseUrl = process.env.CASEFILE_DATABASE_URL?.trim() || undefined;
const tls = values["tls-cert"] && values["tls-key"] ? { cert: readFileSync(values["tls-cert"]), key: readFileSync(values["tls-key"]) } : undefined;
const refusal = bindingRefusal(hostname, { team: databaseUrl !== undefined, tls: tls !== undefined, insecureHttp: values["insecure-http"] });
if (refusal) {
  process.stderr.write(`the dashboard server will not start: ${refusal}\n`);
  process.exit(2);
}
const started = Date.now();
let team: DashboardServerOptions["team"];
if (databaseUrl) {
  const db = await openTeamDatabase(databaseUrl).catch((error: unknown) => {
    process.stderr.write(`the team server could not open its database: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
  team = { authenticate: (token) => authenticateToken(db, token) };
  // Tokens, not the Host header, keep other sites out of a team server (lib/security/local-request).
  process.env.CASEFILE_TEAM_SERVER = "1";
}
// What `next start` sets once listening: the port for the Host check when CASEFILE_PORT is unset
// (lib/security/local-request), and the origin Next's server actions use.
process.env.PORT = String(port);
process.env.__NEXT_PRIVATE_ORIGIN = `${tls ? "https" : "http"}://${hostname}:${port}`;

const app = next({ dev: false, dir: values.dir, hostname, port });
// Listen first, as `next start` does: requests that come while Next prepares wait for it.
const prepared = app.prepare();
const handle = app.getRequestHandler();
const server = createDashboardServer(
  async (request, response) => {
    await prepared;
    await handle(request, response);
  },
  { team, tls },
);
server.on("error", (error) => {
  process.stderr.write(`the dashboard server could not start: ${error.message}\n`);
  process.exit(1);
});
server.listen(port, hostname);
await prepared;
process.stdout.write(`✓ Ready in ${Date.now() - started}ms\n`);
// As `next start`: a stop signal ends the server with status 0.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
