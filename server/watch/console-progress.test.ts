import { describe, expect, it } from "vitest";

import { INDEX_LABEL } from "@/lib/pipeline/workspace-status";
import { consoleProgress } from "@/server/watch/console-progress";

const MB = 1 << 20;

/** A sink on an injected clock, and what it wrote. */
function sink() {
  let t = 0;
  const lines: string[] = [];
  const progress = consoleProgress({ write: (text: string) => lines.push(text) }, () => t);
  return { lines, at: (ms: number, ...args: Parameters<typeof progress>) => ((t = ms), progress(...args)) };
}

describe("the server's console progress (issue 36 item 2: a first start you can watch)", () => {
  it("prints the sync's files of total with files/s and MB/s at most every 2 s, then done; then the catalog's sessions", () => {
    const { lines, at } = sink();
    at(0, 0, 100, "a.jsonl", 0);
    at(1_000, 10, 100, "b.jsonl", 10 * MB);
    at(2_000, 20, 100, "c.jsonl", 20 * MB);
    at(3_000, 30, 100, "d.jsonl", 30 * MB);
    at(4_500, 50, 100, "e.jsonl", 45 * MB);
    at(5_000, 100, 100, "analysed", 100 * MB);
    at(5_100, 1, 3, "catalog web-app");
    at(7_200, 2, 3, "catalog api");
    at(7_300, 3, 3, "catalog cli");
    expect(lines).toEqual([
      "[casefile] syncing: 20 of 100 session files (10/s, 10.0 MB/s)\n",
      "[casefile] syncing: 50 of 100 session files (11/s, 10.0 MB/s)\n",
      "[casefile] syncing: 100 of 100 session files, done\n",
      "[casefile] cataloguing: 2 of 3 sessions\n",
      "[casefile] cataloguing: 3 of 3 sessions, done\n",
    ]);
  });

  it("prints the full-text fill's sessions indexed of total at most every 5 s, then that the index is complete", () => {
    const { lines, at } = sink();
    // The pipeline reports the coverage every 2.5 s while the fill runs, and once when it is complete.
    at(0, 1_000, 20_001, INDEX_LABEL);
    at(2_500, 1_500, 20_001, INDEX_LABEL);
    at(5_000, 2_000, 20_001, INDEX_LABEL);
    at(7_500, 4_210, 20_001, INDEX_LABEL);
    at(10_000, 6_000, 20_001, INDEX_LABEL);
    at(11_000, 20_001, 20_001, INDEX_LABEL);
    expect(lines).toEqual([
      "[casefile] indexing for search: 2,000 of 20,001 sessions (200/s)\n",
      "[casefile] indexing for search: 6,000 of 20,001 sessions (500/s)\n",
      "[casefile] search index complete: 20,001 sessions\n",
    ]);
  });

  it("prints nothing for a small live sync, its rows and its fill, even while a long fill is being reported", () => {
    const { lines, at } = sink();
    at(0, 0, 1, "a.jsonl", 0);
    at(300, 1, 1, "analysed", 4_096);
    at(400, 1, 1, "catalog web-app");
    at(500, 20_000, 20_001, INDEX_LABEL);
    at(900, 20_001, 20_001, INDEX_LABEL);
    expect(lines).toEqual([]);

    // A long fill, and a live sync in the middle of it: each stage keeps its own pace.
    at(10_000, 100, 20_001, INDEX_LABEL);
    at(12_500, 600, 20_001, INDEX_LABEL);
    at(13_000, 0, 1, "b.jsonl", 0);
    at(13_200, 1, 1, "analysed", 4_096);
    at(15_000, 1_100, 20_001, INDEX_LABEL);
    expect(lines).toEqual(["[casefile] indexing for search: 1,100 of 20,001 sessions (200/s)\n"]);
  });

  it("says the index is complete after a fill that ran 2 s or more without a progress line; a stage reported again after it failed midway starts anew", () => {
    const { lines, at } = sink();
    at(0, 10, 20, INDEX_LABEL);
    at(2_500, 15, 20, INDEX_LABEL);
    at(3_000, 20, 20, INDEX_LABEL);
    expect(lines).toEqual(["[casefile] search index complete: 20 sessions\n"]);

    // A sync that failed after its first files, then, a minute later, a small one: nothing printed for it.
    at(10_000, 0, 500, "a.jsonl", 0);
    at(10_500, 5, 500, "b.jsonl", MB);
    at(80_000, 0, 1, "c.jsonl", 0);
    at(80_200, 1, 1, "analysed", 100);
    expect(lines).toHaveLength(1);
  });
});
