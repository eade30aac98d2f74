"use client";

import { structuredPatch } from "diff";
import { useMemo } from "react";

import type { FileEdit } from "@/lib/session-reader/schema";

import { AnsiText } from "./ansi-text";

/**
 * A unified diff of one file edit an agent asked for (`Edit`, `MultiEdit`, `Write`; issue 29):
 * hunks with 3 lines of context, added lines green, removed red, like a code review.
 */
export function EditDiff({ edit }: { edit: FileEdit }) {
  const hunks = useMemo(() => structuredPatch(edit.file_path, edit.file_path, edit.old_string, edit.new_string, "", "", { context: 3 }).hunks, [edit]);
  return (
    <figure data-testid="edit-diff" className="min-w-0 overflow-hidden rounded border border-line">
      <figcaption className="flex items-center gap-2 border-b border-line bg-canvas px-2 py-0.5 font-sans text-2xs text-muted">
        <span className="font-semibold text-ink">{edit.tool}</span>
        <span className="min-w-0 truncate font-mono">
          <AnsiText text={edit.file_path} />
        </span>
        {edit.clipped && <span className="text-warn">clipped for display</span>}
      </figcaption>
      <pre className="max-h-96 overflow-auto text-[0.75rem] leading-4">
        {hunks.map((hunk, h) => (
          <div key={h}>
            <div className="bg-accent-soft px-2 text-muted">
              @@ -{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@
            </div>
            {hunk.lines.filter((l) => !l.startsWith("\\")).map((l, i) => {
              const sign = l[0];
              const tone = sign === "+" ? "bg-ok-soft text-ok" : sign === "-" ? "bg-danger-soft text-danger" : "text-ink/80";
              return (
                <div key={i} data-diff={sign === "+" ? "add" : sign === "-" ? "del" : "ctx"} className={`px-2 whitespace-pre-wrap break-all ${tone}`}>
                  <AnsiText text={l} />
                </div>
              );
            })}
          </div>
        ))}
        {hunks.length === 0 && <div className="px-2 text-muted">No change.</div>}
      </pre>
    </figure>
  );
}
