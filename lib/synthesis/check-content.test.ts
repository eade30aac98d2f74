/** Tests of the work-item content rules: secrets and absolute paths. */
import { describe, expect, it } from "vitest";

import { materialItem } from "@/lib/synthesis/__fixtures__/synthesis-workspace";
import { findAbsolutePaths } from "@/lib/synthesis/absolute-paths";
import { checkWorkItemContent, freeTextFields } from "@/lib/synthesis/check-content";
import { findSecretKinds } from "@/lib/synthesis/secret-scan";

/*
 * Casefile's content rule (seed 001 "no secrets, credentials, or unnecessary absolute paths";
 * issue 4). Fake secrets are assembled at run time so that no scanner flags this file.
 */

const join = (...parts: string[]) => parts.join("");
const SECRETS = {
  awsKeyId: join("AKIA", "Z3MSJV4WWNKWW4ZA"),
  awsSecret: join("aws_secret_access_key = ", "Xq9Zb", "3kT1vN8pQ2wL5rY7uJ4hG6fD0sA9zX1cV2b"),
  github: join("gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"),
  pemHeader: join("-----BEGIN ", "RSA PRIVATE KEY-----"),
  slack: join("xo", "xb-", "123456789012-1234567890123-abcdefghijklmnopqrstuvwx"),
  postgres: join("postgres://", "app:pa55word@", "db.internal:5432/app"),
  basicAuth: join("https://", "deploy:hunter2secret@", "example.com/hook"),
};
const SECRET_HINT = "remove the secret; describe it without its value";
const PATH_HINT = "use a project-relative path (for example src/app.ts), or describe the location without the absolute path";

describe("findSecretKinds (secretlint's recommended preset)", () => {
  it.each([
    ["an AWS access key ID", `rotated ${SECRETS.awsKeyId} today`],
    ["an AWS secret access key", SECRETS.awsSecret],
    ["a GitHub token", `token ${SECRETS.github}`],
    ["a private key", `pasted ${SECRETS.pemHeader} by mistake`],
    ["a Slack token", SECRETS.slack],
    ["a PostgreSQL connection string with credentials", `connected to ${SECRETS.postgres}`],
    ["a basic auth credential", `posted to ${SECRETS.basicAuth}`],
  ])("finds %s", async (kind, text) => {
    expect(await findSecretKinds(text)).toEqual([kind]);
  });

  it("finds nothing in ordinary prose, and the AWS documentation example is not a secret", async () => {
    expect(await findSecretKinds("Rotated the API token and updated the secret store; see docs/secrets.md.")).toEqual([]);
    expect(await findSecretKinds("the example key AKIAIOSFODNN7EXAMPLE from the AWS docs")).toEqual([]);
  });

  it("cannot be switched off from the text with a secretlint-disable comment", async () => {
    expect(await findSecretKinds(`secretlint-disable ${SECRETS.github} secretlint-enable`)).toEqual(["a GitHub token"]);
  });

  it("lists each kind once, in order of appearance", async () => {
    expect(await findSecretKinds(`${SECRETS.github} ${SECRETS.awsKeyId} ${SECRETS.github}`)).toEqual(["a GitHub token", "an AWS access key ID"]);
  });
});

describe("findAbsolutePaths", () => {
  it.each([
    ["/home/alice/proj/src/app.ts", "edited /home/alice/proj/src/app.ts."],
    ["/Users/bob/work/x", "(/Users/bob/work/x)"],
    ["/tmp/casefile-ws/metadata.json", "wrote /tmp/casefile-ws/metadata.json: ok"],
    ["C:\\Users\\bob\\repo\\a.ts", "opened C:\\Users\\bob\\repo\\a.ts"],
    ["D:/src/repo", "cloned into D:/src/repo"],
    ["file:///etc/passwd", "read file:///etc/passwd"],
    ["\\\\fileserver\\share\\x", "copied to \\\\fileserver\\share\\x"],
  ])("finds %s", (found, text) => {
    expect(findAbsolutePaths(text)).toEqual([found]);
  });

  it.each([
    "POST /api/tools/write_work_item returns 400",
    "ran /compact and /clear",
    "and/or, 1/2, TCP/IP",
    "see https://example.com/home/user/x and http://localhost:3000/projects/x",
    "output went to /dev/null",
    "edited src/app.ts and lib/synthesis/schema.ts",
    "config lives in ~/.claude/projects",
    "the /tmp directory",
  ])("leaves alone: %s", (text) => {
    expect(findAbsolutePaths(text)).toEqual([]);
  });
});

describe("checkWorkItemContent", () => {
  it("walks every free-text field in canonical order", () => {
    const raw = { ...materialItem("W0001", "S0001/T0001"), reason: "r", unknown_text: "/home/x/y" };
    expect(freeTextFields(raw).map(([path]) => path)).toEqual([
      "work_item.title",
      "work_item.trigger.summary",
      "work_item.agent_reaction.summary",
      "work_item.agent_reaction.main_actions[0]",
      "work_item.outcomes[0].summary",
      "work_item.terminal_states[0].summary",
      "work_item.limits[0]",
      "work_item.reason",
    ]);
  });

  it("reports each secret kind and each absolute path at its field, secrets first", async () => {
    const raw = {
      ...materialItem("W0001", "S0001/T0001"),
      title: `Fix login in /home/alice/app/login.ts with ${SECRETS.github}`,
      limits: ["fine", `key ${SECRETS.pemHeader}`],
      reason: "/Users/bob/notes.md",
    };
    expect(await checkWorkItemContent(raw)).toEqual([
      { path: "work_item.title", message: "work_item.title contains what looks like a GitHub token", hint: SECRET_HINT },
      { path: "work_item.title", message: "work_item.title contains an absolute path '/home/alice/app/login.ts'", hint: PATH_HINT },
      { path: "work_item.limits[1]", message: "work_item.limits[1] contains what looks like a private key", hint: SECRET_HINT },
      { path: "work_item.reason", message: "work_item.reason contains an absolute path '/Users/bob/notes.md'", hint: PATH_HINT },
    ]);
    expect(await checkWorkItemContent(materialItem("W0001", "S0001/T0001"))).toEqual([]);
  });
});
