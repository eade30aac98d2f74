/** Tests of project keys and labels (contract §1.3). */
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveProjectIdentity, expandHome, sanitizeProjectLabel } from "@/lib/sources/common/project-key";

const hash12 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12);

describe("sanitizeProjectLabel", () => {
  it.each([
    ["ReportGenerator", "ReportGenerator"],
    ["my.project_v2-final", "my.project_v2-final"],
    ["My Project!!", "My-Project"], // a run of bad characters becomes one '-', then trimmed
    ["a  @@  b", "a-b"],
    ["a---b", "a-b"], // repeated '-' collapse
    ["a - - b", "a-b"],
    ["--lead and trail--", "lead-and-trail"],
    ["ünïcödé 项目", "n-c-d"], // non-ASCII letters are outside [A-Za-z0-9._-]
    ["a".repeat(60), "a".repeat(48)],
    [`${"a".repeat(47)}--b`, "a".repeat(47)], // cut at 48 leaves a trailing '-' that is trimmed again
    ["", "unknown-project"],
    ["!!!", "unknown-project"],
    ["项目", "unknown-project"],
  ])("%j → %j", (input, expected) => {
    expect(sanitizeProjectLabel(input)).toBe(expected);
  });
});

describe("deriveProjectIdentity", () => {
  // Expected keys were computed with prompt-diary's algorithm in Python 3.11 (contract §1.3).
  it.each([
    ["/fake/projects/ReportGenerator", "/fake/projects/ReportGenerator", "ReportGenerator-e3486f912e44"],
    ["/fake/projects/ReportGenerator/", "/fake/projects/ReportGenerator", "ReportGenerator-e3486f912e44"],
    ["/fake//projects/./ReportGenerator", "/fake/projects/ReportGenerator", "ReportGenerator-e3486f912e44"],
    ["C:\\Users\\me\\My Project!!", "C:/Users/me/My Project!!", "My-Project-174630e118fd"],
    ["/", "/", "unknown-project-8a5edab28263"],
    ["/srv/ünïcödé 项目", "/srv/ünïcödé 项目", "n-c-d-0ba8dd990d57"],
  ])("missing path %j", async (root, canonicalRoot, projectKey) => {
    const identity = await deriveProjectIdentity(root, "claude-code", "abc");
    expect(identity).toEqual({
      canonicalRoot,
      isUnknown: false,
      projectLabel: projectKey.slice(0, -13),
      projectKey,
    });
  });

  it.each([null, "", "   "])("unknown root %j hashes unknown-project/<source>/<id>", async (root) => {
    expect(await deriveProjectIdentity(root, "claude-code", "abc")).toEqual({
      canonicalRoot: "unknown-project/claude-code/abc",
      isUnknown: true,
      projectLabel: "unknown-project",
      projectKey: "unknown-project-4773e579541f",
    });
    const codex = await deriveProjectIdentity(root, "codex", "019e");
    expect(codex.canonicalRoot).toBe("unknown-project/codex/019e");
    expect(codex.projectKey).toBe(`unknown-project-${hash12("unknown-project/codex/019e")}`);
  });

  describe("existing paths", () => {
    let dir = "";
    beforeAll(async () => {
      dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "casefile-project-key-")));
      await mkdir(path.join(dir, "Real Project"));
      await symlink(path.join(dir, "Real Project"), path.join(dir, "link"));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("resolves symlinks to the real path", async () => {
      const identity = await deriveProjectIdentity(path.join(dir, "link"), "claude-code", "abc");
      const real = path.join(dir, "Real Project");
      expect(identity).toEqual({
        canonicalRoot: real,
        isUnknown: false,
        projectLabel: "Real-Project",
        projectKey: `Real-Project-${hash12(real)}`,
      });
    });

    it("expands ~ before resolving", async () => {
      const home = await realpath(os.homedir());
      expect(expandHome("~")).toBe(os.homedir());
      expect(expandHome("~/x")).toBe(path.join(os.homedir(), "x"));
      expect(expandHome("~other/x")).toBe("~other/x");
      expect((await deriveProjectIdentity("~", "codex", "s")).canonicalRoot).toBe(home);
    });
  });
});
