import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { bundleWorkers, dashboardServerEnv, MALLOC_MMAP_THRESHOLD, SERVER_SEMI_SPACE_MB, serverLaunch, START_SCRIPT, stopBundler, workerEntries } from "@/server/cli/serve-command";

const ROOT = path.resolve(path.dirname(START_SCRIPT), "..");

describe("dashboardServerEnv", () => {
  it("gives next start the workspace, glibc's fixed mmap threshold and a small young generation, keeping the caller's own settings", () => {
    const base: NodeJS.ProcessEnv = { ...process.env, CASEFILE_WORKSPACE: "/old", NODE_OPTIONS: "--trace-warnings" };
    delete base.MALLOC_MMAP_THRESHOLD_;
    expect(dashboardServerEnv(base, "/ws")).toEqual({
      ...base,
      CASEFILE_WORKSPACE: "/ws",
      MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD,
      NODE_OPTIONS: `--trace-warnings --max-semi-space-size=${SERVER_SEMI_SPACE_MB}`,
    });
    const own = dashboardServerEnv({ ...base, MALLOC_MMAP_THRESHOLD_: "65536", NODE_OPTIONS: "--max-semi-space-size=16" }, "/ws");
    expect([own.MALLOC_MMAP_THRESHOLD_, own.NODE_OPTIONS]).toEqual(["65536", "--max-semi-space-size=16"]);
  });
});

/** Children of this process (pids), from /proc. */
const children = (): number[] =>
  readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
const command = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

describe("what npm start leaves running (issue 36 item 2)", () => {
  it("package.json's start runs scripts/start.mjs with plain Node, in the server's environment, so it can become the server", () => {
    const start = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.start!;
    expect(start).toContain(`MALLOC_MMAP_THRESHOLD_=\${MALLOC_MMAP_THRESHOLD_:-${MALLOC_MMAP_THRESHOLD}}`);
    expect(start).toContain(`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`);
    expect(start).toMatch(/exec node scripts\/start\.mjs$/);
    expect(start).not.toMatch(/tsx/);
  });

  it("the dashboard server is a bundle run by plain Node: no tsx in its command or environment, NODE_ENV production", async () => {
    const launch = await serverLaunch("/ws", 3124, { PATH: process.env.PATH, NODE_ENV: "development", NODE_OPTIONS: "--trace-warnings" });
    expect(launch.script).toMatch(/node_modules\/\.cache\/casefile-workers\/start-dashboard-[0-9a-f]{16}\.mjs$/);
    expect([launch.script, ...launch.args, launch.env.NODE_OPTIONS].join(" ")).not.toMatch(/tsx|--import|--loader|--require/);
    expect(launch.env).toMatchObject({ NODE_ENV: "production", CASEFILE_PORT: "3124", CASEFILE_WORKSPACE: "/ws", MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD });
  });

  it("every worker entry lib/ starts is bundled before the server starts, and no esbuild service is left running after", async () => {
    const lib = path.join(ROOT, "lib");
    const started = new Set<string>();
    // Every `startWorker(import.meta.url, "./x-worker.ts")` in lib/'s code (not its comments or test fixtures) names an entry workerEntries lists.
    const calls = execFileSync("grep", ["-rnE", "--include=*.ts", "--exclude=*.test.ts", "--exclude-dir=__fixtures__", String.raw`startWorker\(import\.meta\.url, "\./[a-z-]+\.ts"\)`, lib], { encoding: "utf8" });
    for (const line of calls.trim().split("\n")) {
      const [file, , code] = line.split(/:(\d+):/);
      if (/^\s*(\*|\/\/)/.test(code!)) continue;
      for (const [, entry] of code!.matchAll(/startWorker\(import\.meta\.url, "(\.\/[a-z-]+\.ts)"\)/g)) started.add(path.join(path.dirname(file!), entry!));
    }
    expect(started.size).toBeGreaterThan(5);
    expect(workerEntries(lib)).toEqual(expect.arrayContaining([...started]));
    await bundleWorkers();
    // Bundles already made need no esbuild: start its service as a rebuild would.
    await (await import("esbuild")).transform("let made = 1");
    expect(children().map(command).filter((c) => /esbuild/.test(c))).toHaveLength(1);
    await stopBundler();
    // Stopped means sent SIGTERM: it is gone a moment later.
    const esbuild = () => children().map(command).filter((c) => /esbuild/.test(c));
    for (let i = 0; i < 40 && esbuild().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(esbuild()).toEqual([]);
  }, 60_000);
});
