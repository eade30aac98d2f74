/**
 * Token chart benchmark (issue 29), not a test: `npx tsx bench/token-chart.bench.ts`.
 *
 * Prepares a fresh workspace over the ≥ 900 MB real-shaped Claude Code session of
 * `bench/real-shaped.ts` (its own directory: the analysis cache starts empty), starts the built
 * app (`next start`, as `casefile serve` does) and opens the session's Analysis tab in Chromium:
 * the time from navigation start until the token chart's uPlot canvas is in the page and has
 * pixels drawn on it. The first visit after the server started is cold (the analysis is
 * computed and cached), the next ones warm. Goal (issue 29): ≤ 1 s.
 *
 * The real-shaped session repeats the corpus transcripts round after round, each copy with fresh
 * message ids (bench/real-shaped, recipe 2), so the chart has one point per assistant message of
 * every round (~70,000, thinned to ≤ 2,000 drawn), as a real gigabyte session has.
 *
 * `--cli-prepare` then runs what `casefile prepare` runs after its sync (the catalog refresh,
 * which stores usage, and `warmSessionPages`, which stores the analysis and forensics scan), so
 * the cold visit is a first visit after `casefile prepare` rather than after a bare prepare.
 *
 * `--reuse` keeps the workspace a previous `--keep` run prepared (re-prepared only when its sessions
 * changed): the cold visit is then a freshly started server's first, over derived files already stored.
 *
 * Flags: `--visits N` (default 3: one cold, the rest warm), `--workspace DIR` (default
 * /tmp/casefile-bench/token-chart-ws, removed at the end unless `--keep`), `--screenshot FILE`
 * (a screenshot of the last visit), `--port N` (default `CASEFILE_BENCH_PORT`, else 3260). Each
 * visit also prints where its time went, from the browser's own timings: first byte of the page,
 * DOMContentLoaded, the `…/token-chart` fetch (start → end) and the chart drawn. Needs a
 * `next build` (built when missing). The machine may be shared: run it a few times and read medians.
 */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import { performance } from "node:perf_hooks";

import { chromium, type Page } from "@playwright/test";

import { RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import { closeCatalog } from "@/lib/catalog/catalog";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { warmSessionPages } from "@/lib/catalog/warm";
import { createCoreContext } from "@/lib/context";

import { startBenchServer } from "./bench-server";
import { ensureRealShapedWorkspace } from "./real-shaped";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const PORT = Number(flag("--port") ?? process.env.CASEFILE_BENCH_PORT ?? 3260);
const VISITS = Math.max(2, Number(flag("--visits") ?? 3));
const WORKSPACE = flag("--workspace") ?? "/tmp/casefile-bench/token-chart-ws";
const SCREENSHOT = flag("--screenshot");
const KEEP = args.includes("--keep");
const CLI_PREPARE = args.includes("--cli-prepare");
const REUSE = args.includes("--reuse");

const ms = (n: number): string => `${n.toFixed(0)} ms`;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** Resolves once the chart's canvas exists and holds at least one non-transparent pixel. */
async function waitForDrawnChart(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="token-chart"] canvas');
      if (!canvas || canvas.width === 0 || canvas.height === 0) return false;
      const pixels = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!pixels) return false;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
      return false;
    },
    undefined,
    { polling: "raf", timeout: 300_000 },
  );
}

/** Where a visit's time went, in ms since navigation start (the browser's clock): page bytes, DOM, the chart's fetch, now. */
async function phases(page: Page): Promise<string> {
  const t = await page.evaluate(() => {
    const perf = window.performance; // the browser's, not node:perf_hooks' (imported above)
    const nav = perf.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const fetch = (perf.getEntriesByType("resource") as PerformanceResourceTiming[]).find((e) => e.name.includes("/token-chart"));
    const marks = (window as unknown as { __chartMarks?: { figure?: number; canvas?: number } }).__chartMarks ?? {};
    return {
      figure: marks.figure ?? NaN,
      canvas: marks.canvas ?? NaN,
      firstByte: nav?.responseStart ?? NaN,
      lastByte: nav?.responseEnd ?? NaN,
      dom: nav?.domContentLoadedEventEnd ?? NaN,
      fetchStart: fetch?.startTime ?? NaN,
      fetchEnd: fetch?.responseEnd ?? NaN,
      now: perf.now(),
    };
  });
  const fetched = Number.isNaN(t.fetchStart) ? "" : `, chart fetch ${ms(t.fetchStart)} → ${ms(t.fetchEnd)}`;
  return `page first byte ${ms(t.firstByte)}, chart's HTML in ${ms(t.figure)}, DOMContentLoaded ${ms(t.dom)}, canvas made ${ms(t.canvas)}, drawn by ${ms(t.now)}, page's last byte ${ms(t.lastByte)}${fetched}`;
}

/**
 * Notes, once per animation frame, when the chart's server-rendered figure and then uPlot's canvas
 * are first in the page (`window.__chartMarks`). A string: tsx's transform of a function would
 * reference its own helpers, which the page does not have.
 */
const MARK_CHART = `(() => {
  const marks = (window.__chartMarks = {});
  const look = () => {
    if (marks.figure === undefined && document.querySelector('[data-testid="token-chart"]')) marks.figure = performance.now();
    if (marks.canvas === undefined && document.querySelector('[data-testid="token-chart"] canvas')) marks.canvas = performance.now();
    if (marks.canvas === undefined) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();`;

async function main(): Promise<void> {
  const t0 = performance.now();
  const ws = await ensureRealShapedWorkspace({ fresh: !REUSE, workspace: WORKSPACE });
  const s = ws.claudeSession;
  if (CLI_PREPARE && (!REUSE || ws.prepareMs !== null)) {
    const ctx = createCoreContext(ws.workspace);
    const t1 = performance.now();
    await refreshCatalog(ctx);
    await warmSessionPages(ctx, RISK_WAIT_MAX_BYTES);
    closeCatalog(ctx);
    console.log(`casefile prepare's catalog refresh and warm-up: ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  }
  console.log(`workspace ${ws.workspace} prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s: claude-code ${(ws.claudeStats.bytes / 1e6).toFixed(0)} MB, ${s.lines} lines, ${s.turns} turns → ${s.project_key}/${s.session_ref}`);
  const server = await startBenchServer(ws.workspace, PORT);
  const browser = await chromium.launch({
    executablePath: existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const url = `http://127.0.0.1:${PORT}/projects/${s.project_key}/sessions/${s.session_ref}/analysis`;
    const times: number[] = [];
    for (let i = 0; i < VISITS; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(MARK_CHART);
      try {
        const start = performance.now();
        await page.goto(url, { waitUntil: "commit", timeout: 300_000 });
        await waitForDrawnChart(page);
        times.push(performance.now() - start);
        const points = await page.evaluate(() => document.querySelectorAll('[data-testid="reset-marker"]').length);
        console.log(`visit ${i + 1} (${i === 0 ? "cold" : "warm"}): chart drawn after ${ms(times[i]!)} (${points} reset markers); ${await phases(page)}`);
        if (SCREENSHOT && i === VISITS - 1) await page.screenshot({ path: SCREENSHOT, fullPage: false });
      } finally {
        await context.close();
      }
    }
    const warm = times.slice(1);
    console.log(`token chart on ${(ws.claudeStats.bytes / 1e9).toFixed(2)} GB session: cold ${ms(times[0]!)}, warm median ${ms(median(warm))} (${warm.map(ms).join(", ")}); goal ≤ 1000 ms`);
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    if (!KEEP) await fs.rm(ws.workspace, { recursive: true, force: true });
  }
}

await main();
