"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { formatLocalDateTime } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import type { ChainAuthor } from "@/lib/ledger/schema";

import type { CardRef } from "./mutations";
import { evidenceKeys } from "./queries";

// Under the "evidence" root, so a card write anywhere refetches it with the card (live).
const chainAuthorsQuery = ({ projectKey, sessionRef }: CardRef) =>
  queryOptions({
    queryKey: [...evidenceKeys.all, "authors", projectKey, sessionRef] as const,
    queryFn: ({ signal }) => fetchJson<{ status: "ok"; authors: Record<string, ChainAuthor> }>(`/api/audit/authors?${toSearchParams({ project_key: projectKey, session_ref: sessionRef })}`, { signal }),
  });

/** "Written by": the door, client and tool of the last call that wrote or corrected this turn's chain (audit ledger). */
export function ChainAuthorLine({ cardRef, turnRef }: { cardRef: CardRef; turnRef: string }) {
  const query = useQuery(chainAuthorsQuery(cardRef));
  const author = query.data?.authors[turnRef];
  if (!author) return null;
  const who = `${author.door}${author.client && author.client !== author.door ? ` (${author.client})` : ""}`;
  return (
    <p aria-label="Written by" className="text-2xs text-muted">
      Written by <span className="font-medium text-ink">{who}</span> via <span className="font-mono">{author.tool_name}</span> · {formatLocalDateTime(author.timestamp)} ·{" "}
      <Link href={routes.audit(`${cardRef.projectKey}/${cardRef.sessionRef}`)} className="text-accent hover:underline">
        audit
      </Link>
    </p>
  );
}
