/**
 * Entry of the dashboard server process (`casefile serve` / `npm start` spawn it, bundled by
 * lib/jsonl/workers' bundledEntry, in place of `next start`): Next's production request handler
 * behind server/serve/dashboard-server's http.Server.
 *
 *   node <bundle> --dir <app dir> --hostname 127.0.0.1 --port <port>
 *
 * NODE_ENV must be `production` in its environment (serve-command sets it, as `next start` does).
 */
import { parseArgs } from "node:util";

import next from "next";

import { createDashboardServer } from "@/server/serve/dashboard-server";

const { values } = parseArgs({ options: { dir: { type: "string" }, hostname: { type: "string", default: "127.0.0.1" }, port: { type: "string" } } });
const port = Number(values.port);
if (!values.dir || !Number.isInteger(port) || port <= 0 || port > 65535) {
  process.stderr.write("usage: start-dashboard --dir <app dir> --hostname <host> --port <port>\n");
  process.exit(2);
}
const hostname = values.hostname!;
const started = Date.now();
// What `next start` sets once listening: the port for the Host check when CASEFILE_PORT is unset
// (lib/security/local-request), and the origin Next's server actions use.
process.env.PORT = String(port);
process.env.__NEXT_PRIVATE_ORIGIN = `http://${hostname}:${port}`;

const app = next({ dev: false, dir: values.dir, hostname, port });
// Listen first, as `next start` does: requests that come while Next prepares wait for it.
const prepared = app.prepare();
const handle = app.getRequestHandler();
const server = createDashboardServer(async (request, response) => {
  await prepared;
  await handle(request, response);
});
server.on("error", (error) => {
  process.stderr.write(`the dashboard server could not start: ${error.message}\n`);
  process.exit(1);
});
server.listen(port, hostname);
await prepared;
process.stdout.write(`✓ Ready in ${Date.now() - started}ms\n`);
// As `next start`: a stop signal ends the server with status 0.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
