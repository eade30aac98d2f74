import type { SynthesisState } from "@/lib/synthesis/schema";

/**
 * prompt-diary's `inspect_project_synthesis` messages, verbatim (contract §3.5). Open when the
 * envelope itself has problems; folded while only coverage is missing (the list can be long).
 */
export function InspectionMessages({ state }: { state: SynthesisState }) {
  if (state.errors.length === 0) return null;
  const broken = !state.sound && state.version !== "absent";
  return (
    <details open={broken} className={`rounded border text-xs ${broken ? "border-danger/40 bg-danger-soft" : "border-line bg-canvas"}`}>
      <summary className="cursor-pointer px-2 py-1 font-medium select-none">
        Workspace check: {state.errors.length === 1 ? "1 message" : `${state.errors.length} messages`}
        {state.version === "absent" && <span className="font-normal text-muted"> · the first work item creates project-synthesis.json</span>}
      </summary>
      <ul aria-label="Inspection messages" className="flex max-h-48 flex-col gap-1 overflow-auto px-2 pb-2">
        {state.errors.map((message, i) => (
          <li key={i} className={`font-mono text-2xs break-words ${broken ? "text-danger" : "text-muted"}`}>
            {message}
          </li>
        ))}
      </ul>
    </details>
  );
}
