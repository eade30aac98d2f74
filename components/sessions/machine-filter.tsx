"use client";

/**
 * The session table's machine filter (issue 39 provenance): one machine's sessions or all. Shown
 * only when the project's sessions came from two or more machines (`machines`, list_sessions'),
 * or while a machine is chosen (a shared link to a machine that has no sessions left).
 */
export function MachineFilter({ value, machines, onChange }: { value: string; machines: readonly string[]; onChange: (machine: string) => void }) {
  const options = value && !machines.includes(value) ? [...machines, value] : machines;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="machine-filter" className="text-xs font-medium text-muted">
        Machine
      </label>
      <select
        id="machine-filter"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="h-8 rounded-md border border-line-strong bg-surface px-2 text-sm focus:border-accent"
      >
        <option value="">all</option>
        {options.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </div>
  );
}
