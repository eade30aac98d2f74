"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Query roots whose data can change when another process writes (coverage, cards, synthesis,
 * synced sessions, and their turns: a live append extends the last turn, issue 29).
 */
const LIVE_KEYS = new Set(["overview", "evidence", "synthesis", "sessions", "turns"]);

/**
 * Listens to the server's workspace change stream (`/api/events`, Server-Sent Events) and,
 * on every change, refetches the live queries and re-renders the page's server components,
 * so what agents write in other processes shows without a reload (issue 4, "Live"). The
 * browser's EventSource reconnects by itself after a server restart. Renders nothing. Not on
 * `quietOn`, a team server's login page, whose visitor has no token yet (the stream would answer 401).
 */
export function WorkspaceEvents({ quietOn }: { quietOn: string }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const listen = usePathname() !== quietOn;
  // NOTE: an effect is right here: it subscribes to an external system (the event stream).
  useEffect(() => {
    if (!listen) return;
    const source = new EventSource("/api/events");
    const onChange = () => {
      void queryClient.invalidateQueries({ predicate: (query) => LIVE_KEYS.has(String(query.queryKey[0])), refetchType: "active" });
      router.refresh();
    };
    source.addEventListener("change", onChange);
    return () => {
      source.removeEventListener("change", onChange);
      source.close();
    };
  }, [queryClient, router, listen]);
  return null;
}
