// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { AUDIT_COLUMNS, type AuditRow } from "./columns";

afterEach(cleanup);

const door = AUDIT_COLUMNS.find((c) => c.id === "door")!;
const row = (extra: Partial<AuditRow>) => ({ door: "ui", ...extra }) as AuditRow;

describe("the Audit table's door column", () => {
  it("names a team server's caller: the token's machine, its role in the title (issue 39)", () => {
    render(<>{door.cell(row({ actor: { machine: "reviewer", role: "read" } }))}</>);
    const cell = screen.getByText("ui · reviewer");
    expect(cell.getAttribute("title")).toBe("machine reviewer, role read");
  });

  it("on a local dashboard, the door and its client only", () => {
    render(<>{door.cell(row({ door: "mcp", client: "claude-code" }))}</>);
    expect(screen.getByText("mcp · claude-code").getAttribute("title")).toBe("claude-code");
  });
});
