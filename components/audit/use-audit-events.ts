"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import { auditKeys } from "./queries";

/**
 * Refetches the Audit page's queries whenever the audit ledger grows, whoever wrote it (the
 * server's change feed sends `audit` events on /api/events; issue 8 "live"). The Audit page's own
 * reads are not recorded, so it never feeds itself.
 */
export function useAuditEvents(): void {
  const queryClient = useQueryClient();
  // NOTE: an effect is right here: it subscribes to an external system (the event stream).
  useEffect(() => {
    const source = new EventSource("/api/events");
    const onAudit = () => void queryClient.invalidateQueries({ queryKey: [...auditKeys.all, "calls"], refetchType: "active" });
    source.addEventListener("audit", onAudit);
    return () => {
      source.removeEventListener("audit", onAudit);
      source.close();
    };
  }, [queryClient]);
}
