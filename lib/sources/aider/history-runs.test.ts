import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { localStampToIso, parseLocalStamp, runHeaderStamp, runIdentities, splitRuns } from "@/lib/sources/aider/history-runs";

const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "Europe/Berlin";
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe("runHeaderStamp", () => {
  it("reads the text after the header prefix, a bad date included", () => {
    expect(runHeaderStamp("# aider chat started at 2026-06-09 14:01:00")).toBe("2026-06-09 14:01:00");
    expect(runHeaderStamp("# aider chat started at 2026-06-09 14:01:00  ")).toBe("2026-06-09 14:01:00");
    expect(runHeaderStamp("# aider chat started at yesterday")).toBe("yesterday");
  });

  it("is null for any other line, a prompt or a quoted header included", () => {
    expect(runHeaderStamp("#### # aider chat started at 2026-06-09 14:01:00")).toBeNull();
    expect(runHeaderStamp("> # aider chat started at 2026-06-09 14:01:00")).toBeNull();
    expect(runHeaderStamp("## aider chat started at 2026-06-09 14:01:00")).toBeNull();
  });
});

describe("parseLocalStamp", () => {
  it("reads a calendar time", () => {
    expect(parseLocalStamp("2024-02-29 23:59:59")).toEqual({ year: 2024, month: 2, day: 29, hour: 23, minute: 59, second: 59 });
  });

  it.each(["2026-02-29 10:00:00", "2026-02-30 25:61:00", "2026-13-01 00:00:00", "2026-06-09 24:00:00", "2026-06-09T14:01:00", "2026-06-09 14:01", "0999-01-01 00:00:00", ""])(
    "refuses %j",
    (raw) => expect(parseLocalStamp(raw)).toBeNull(),
  );
});

describe("localStampToIso", () => {
  it("reads the wall time in the process zone (TZ), daylight saving included", () => {
    expect(localStampToIso(parseLocalStamp("2026-06-09 14:01:00")!)).toBe("2026-06-09T12:01:00.000Z");
    expect(localStampToIso(parseLocalStamp("2026-01-09 14:01:00")!)).toBe("2026-01-09T13:01:00.000Z");
    process.env.TZ = "America/New_York";
    try {
      expect(localStampToIso(parseLocalStamp("2026-06-09 14:01:00")!)).toBe("2026-06-09T18:01:00.000Z");
    } finally {
      process.env.TZ = "Europe/Berlin";
    }
  });
});

describe("splitRuns", () => {
  it("starts a run at each header and ends it before the next; blank lines before the first header belong to none", () => {
    const lines = ["", "# aider chat started at 2026-06-09 14:01:00", "", "#### hi", "", "# aider chat started at 2026-06-09 15:00:00"];
    expect(splitRuns(lines)).toEqual([
      { startLine: 2, endLine: 5, stamp: "2026-06-09 14:01:00", local: parseLocalStamp("2026-06-09 14:01:00") },
      { startLine: 6, endLine: 6, stamp: "2026-06-09 15:00:00", local: parseLocalStamp("2026-06-09 15:00:00") },
    ]);
  });

  it("keeps text before the first header as a run without a header, and a bad date as a run without a time", () => {
    const runs = splitRuns(["notes", "", "# aider chat started at soon", "x"]);
    expect(runs).toEqual([
      { startLine: 1, endLine: 2, stamp: null, local: null },
      { startLine: 3, endLine: 4, stamp: "soon", local: null },
    ]);
  });

  it("finds no run in a file without a header", () => {
    expect(splitRuns(["# README", "text"])).toEqual([]);
    expect(splitRuns([])).toEqual([]);
  });
});

describe("runIdentities", () => {
  it("names runs by project and local start time, by line when the time is missing or repeated", () => {
    const runs = splitRuns([
      "intro",
      "# aider chat started at 2026-06-09 14:01:00",
      "# aider chat started at 2026-06-09 14:01:00",
      "# aider chat started at 2026-02-30 25:61:00",
      "# aider chat started at 2026-06-10 09:00:05",
    ]);
    expect(runIdentities(runs, "my repo")).toEqual([
      { sourceSessionId: "my repo-L1", fileName: "my_repo.L1.md" },
      { sourceSessionId: "my repo-20260609T140100", fileName: "my_repo.2026-06-09T14-01-00.md" },
      { sourceSessionId: "my repo-20260609T140100-L3", fileName: "my_repo.2026-06-09T14-01-00-L3.md" },
      { sourceSessionId: "my repo-L4", fileName: "my_repo.L4.md" },
      { sourceSessionId: "my repo-20260610T090005", fileName: "my_repo.2026-06-10T09-00-05.md" },
    ]);
  });

  it("keeps file names free of separators and leading dots", () => {
    const runs = splitRuns(["# aider chat started at 2026-06-09 14:01:00"]);
    expect(runIdentities(runs, ".dotfiles")[0]!.fileName).toBe("dotfiles.2026-06-09T14-01-00.md");
    expect(runIdentities(runs, "a:b\\c")[0]!.fileName).toBe("a_b_c.2026-06-09T14-01-00.md");
    expect(runIdentities(runs, "...")[0]!.fileName).toBe("aider.2026-06-09T14-01-00.md");
  });
});
