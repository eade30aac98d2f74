// resolveInside: containment after realpath, with each root's real path remembered while the root names the same directory.
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { resolveInside } from "@/lib/fs/paths";
import { makeTempDir } from "@/lib/testing/shared";

describe("resolveInside", () => {
  it("resolves inside the root, refuses escapes, and follows a root that now names another directory", async () => {
    const base = await fs.realpath(await makeTempDir("casefile-paths-"));
    const [a, b] = [path.join(base, "a"), path.join(base, "b")];
    await fs.mkdir(path.join(a, "sessions"), { recursive: true });
    await fs.mkdir(path.join(b, "sessions"), { recursive: true });
    const root = path.join(base, "root");
    await fs.symlink(a, root);
    expect(await resolveInside(root, "sessions/S1.jsonl")).toBe(path.join(a, "sessions", "S1.jsonl"));
    await expect(resolveInside(root, "../b/sessions")).rejects.toMatchObject({ code: "invalid_input" });
    await fs.symlink(b, path.join(a, "sessions", "out"));
    await expect(resolveInside(root, "sessions/out/x.jsonl")).rejects.toMatchObject({ code: "invalid_input" });
    // The root is pointed at another directory: its remembered real path no longer serves.
    await fs.rm(root);
    await fs.symlink(b, root);
    expect(await resolveInside(root, "sessions/S1.jsonl")).toBe(path.join(b, "sessions", "S1.jsonl"));
  });
});
