import { spawnSync } from "node:child_process";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { DASHBOARD_SERVER_ENTRY, serverCommand } from "@/server/cli/serve-command";

describe("the dashboard server process (casefile serve / npm start)", () => {
  it("is the bundled start-dashboard entry, run by plain Node, not `next start` (issue 35, item 8)", async () => {
    const [script, args] = await serverCommand(3123);
    expect(script).toMatch(/start-dashboard-[0-9a-f]{16}\.mjs$/);
    expect(args).toEqual(["--dir", path.resolve(path.dirname(DASHBOARD_SERVER_ENTRY), "..", ".."), "--hostname", "127.0.0.1", "--port", "3123"]);
    // The bundle runs without tsx (its @/ imports are inside it) and checks its arguments.
    const run = spawnSync(process.execPath, [script, "--dir", "/nowhere"], { encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } });
    expect([run.status, run.stderr]).toEqual([2, "usage: start-dashboard --dir <app dir> --hostname <host> --port <port>\n"]);
  });

  it("refuses to listen beyond loopback unless it is a team server over TLS or told --insecure-http (issue 39)", async () => {
    const [script] = await serverCommand(3123);
    const start = (args: string[], env: Record<string, string> = {}) => {
      const base: NodeJS.ProcessEnv = { ...process.env, ...env, NODE_ENV: "production" };
      if (!env.CASEFILE_DATABASE_URL) delete base.CASEFILE_DATABASE_URL;
      return spawnSync(process.execPath, [script, "--dir", "/nowhere", "--port", "3999", ...args], { encoding: "utf8", env: base });
    };
    const local = start(["--hostname", "0.0.0.0"]);
    expect([local.status, local.stderr]).toEqual([2, expect.stringMatching(/^the dashboard server will not start: --host 0\.0\.0\.0 .*only a team server/)]);
    const plain = start(["--hostname", "0.0.0.0"], { CASEFILE_DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
    expect([plain.status, plain.stderr]).toEqual([2, expect.stringMatching(/--tls-cert FILE --tls-key FILE .* or --insecure-http/)]);
  });
});
