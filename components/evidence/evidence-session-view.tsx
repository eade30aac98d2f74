"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";

import { SessionViewer } from "@/components/viewer/session-viewer";
import type { EvidenceCardView } from "@/lib/evidence/schema";
import type { ViewerLinesResult } from "@/lib/session-reader/schema";
import type { SessionDetail } from "@/lib/workspace/schema";

import { citedRanges } from "./cited-lines";
import { EvidencePanel } from "./evidence-panel";
import { evidenceCardQuery } from "./queries";

/**
 * The session page with evidence: the viewer marks every line a chain cites, and the evidence
 * panel sits beside it. Both read the same polled card query.
 * NOTE: a client composer because the marks derive from client query data; the viewer itself
 * knows nothing of evidence (it takes generic `marks` and a `panel` slot).
 */
export function EvidenceSessionView({ detail, initialCard, initialWindow = null }: { detail: SessionDetail; initialCard: EvidenceCardView; initialWindow?: ViewerLinesResult | null }) {
  const cardRef = useMemo(() => ({ projectKey: detail.project_key, sessionRef: detail.session_ref }), [detail.project_key, detail.session_ref]);
  const { data: card } = useQuery({ ...evidenceCardQuery(cardRef.projectKey, cardRef.sessionRef), initialData: initialCard });
  const marks = useMemo(() => citedRanges(card), [card]);
  return (
    <SessionViewer
      detail={detail}
      marks={marks}
      initialWindow={initialWindow}
      panel={<EvidencePanel cardRef={cardRef} initialCard={initialCard} lineCount={detail.line_count} />}
    />
  );
}
