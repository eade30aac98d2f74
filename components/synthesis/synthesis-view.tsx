"use client";

import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";

import type { OperatorKind, SynthesisState } from "@/lib/synthesis/schema";

import { CoverageBar } from "./coverage-bar";
import { LiveStatus } from "./live-status";
import { OperatorItemForm } from "./operator-item-form";
import { synthesisStateQuery } from "./queries";
import { KIND_FOR_STATE, sessionRows, turnKeyOf } from "./turn-states";
import { TurnStrip } from "./turn-strip";
import { WorkItemList } from "./work-item-list";

/**
 * The live synthesis page: coverage bar, per-session strip, the operator's form and the work
 * items, all from one polled state. The selection is the operator's picks intersected with the
 * turns that are open now, derived on every render, so a turn an agent covers meanwhile drops
 * out of it by itself.
 */
export function SynthesisView({ initialState }: { initialState: SynthesisState }) {
  const projectKey = initialState.project_key;
  const { data } = useQuery({ ...synthesisStateQuery(projectKey), initialData: { etag: null, state: initialState } });
  const { state } = data;
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());

  const rows = useMemo(() => sessionRows(state.turns), [state.turns]);
  const spans = useMemo(() => new Map(state.turns.map((t) => [turnKeyOf(t), t])), [state.turns]);
  const selection = useMemo(() => state.turns.filter((t) => KIND_FOR_STATE[t.state] && picked.has(turnKeyOf(t))), [state.turns, picked]);
  const selected = useMemo(() => new Set(selection.map(turnKeyOf)), [selection]);

  const toggle = useCallback(
    (key: string) =>
      setPicked((prev) => {
        const next = new Set(prev);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );
  const keepOnly = (kind: OperatorKind) => setPicked(new Set(selection.filter((t) => KIND_FOR_STATE[t.state] === kind).map(turnKeyOf)));
  const clear = useCallback(() => setPicked(new Set()), []);
  const writable = !state.read_only;

  return (
    <div className="flex flex-col gap-4">
      <CoverageBar state={state} live={<LiveStatus projectKey={projectKey} />} />
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <TurnStrip projectKey={projectKey} rows={rows} selected={selected} selectable={writable} onToggle={toggle} />
        {writable ? (
          <OperatorItemForm projectKey={projectKey} selection={selection} onRemove={toggle} onKeepOnly={keepOnly} onClear={clear} />
        ) : (
          <p className="rounded border border-line bg-surface p-4 text-xs text-muted">
            This workspace is read-only (schema 2): operator items cannot be recorded here. Re-prepare it with Casefile to write.
          </p>
        )}
      </div>
      <WorkItemList projectKey={projectKey} items={state.work_items} spans={spans} />
    </div>
  );
}
