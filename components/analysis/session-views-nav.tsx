import { Breadcrumb } from "@/components/navigation/breadcrumb";
import { SessionTabs } from "@/components/sessions/session-tabs";

/** Breadcrumb and the shared session tab bar for the Analysis and Chat export pages. */
export function SessionViewsNav({ projectKey, projectLabel, sessionRef, current }: { projectKey: string; projectLabel: string; sessionRef: string; current: "analysis" | "export" }) {
  return (
    <header className="flex flex-col gap-1">
      <Breadcrumb project={{ project_key: projectKey, project_label: projectLabel }} current={sessionRef} />
      <SessionTabs projectKey={projectKey} sessionRef={sessionRef} active={current} />
    </header>
  );
}
