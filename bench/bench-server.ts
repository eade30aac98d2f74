/** The benches' dashboard server: `next start` of this checkout (built first when it has no build) on 127.0.0.1, as `casefile serve` starts it. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { dashboardServerEnv } from "@/server/cli/serve-command";

/** The checkout the benches run from. */
export const APP_DIR = path.resolve(fileURLToPath(new URL("../", import.meta.url)));

/**
 * Starts the production server on `port` over `workspace` with `casefile serve`'s environment
 * (its malloc and heap settings included) plus `extraNodeOptions`, and resolves once it is ready.
 * @throws when the server exits before it is ready.
 */
export async function startBenchServer(workspace: string, port: number, extraNodeOptions = ""): Promise<ChildProcess> {
  if (!existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) spawnSync(process.execPath, [path.join(APP_DIR, "node_modules/next/dist/bin/next"), "build"], { cwd: APP_DIR, stdio: "inherit" });
  const env = dashboardServerEnv(process.env, workspace);
  const server = spawn(process.execPath, [path.join(APP_DIR, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: APP_DIR,
    env: { ...env, ...(extraNodeOptions ? { NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} ${extraNodeOptions}`.trim() } : {}) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready")) resolve();
    });
    server.on("exit", (code) => reject(new Error(`next start exited with ${code}`)));
  });
  return server;
}
