"use client";

import { FilterSelect } from "./filter-select";

/**
 * The session table's machine filter (issue 39 provenance): one machine's sessions or all. Shown
 * only when the project's sessions came from two or more machines (`machines`, list_sessions'),
 * or while a machine is chosen (a shared link to a machine that has no sessions left).
 */
export function MachineFilter({ value, machines, onChange }: { value: string; machines: readonly string[]; onChange: (machine: string) => void }) {
  const names = value && !machines.includes(value) ? [...machines, value] : machines;
  return <FilterSelect id="machine-filter" label="Machine" value={value} options={names.map((m) => ({ value: m, label: m }))} onChange={onChange} />;
}
