import Link from "next/link";
import type { ReactNode } from "react";

import { DemoBadge } from "@/components/navigation/demo-badge";
import { routes } from "@/components/navigation/routes";
import { HeaderSearch } from "@/components/search/header-search";
import { SignedIn, type SignedInAs } from "@/components/team/signed-in";
import { WriteAccessProvider } from "@/components/team/write-access";
import { writeRefusal } from "@/components/team/write-refusal";

/**
 * The dashboard's frame: the header bar (home link, demo badge when `demo`, the search box, Usage, Audit,
 * and on a team server who is `signedIn`, with Sign out) over a full-height main area holding
 * `children`, whose writing controls learn whether this browser may write (a read token may not).
 * Shared by the `(dashboard)` and `(viewer)` layouts.
 */
export function AppFrame({ demo, signedIn, children }: { demo: boolean; signedIn: SignedInAs | null; children: ReactNode }) {
  return (
    <div className="flex h-dvh flex-col">
      <header className="flex h-11 shrink-0 items-center gap-3 border-b border-line bg-surface px-4">
        <Link href="/" className="font-semibold tracking-tight">
          Casefile
        </Link>
        <span className="hidden text-xs text-muted sm:inline">agent session forensics</span>
        {demo && <DemoBadge />}
        {/* The search box gives way on a narrow screen (390 px), so the links and Sign out stay on it. */}
        <nav className="ml-auto flex min-w-0 flex-1 items-center justify-end gap-3 text-sm">
          <HeaderSearch />
          <Link href={routes.usage()} className="text-accent hover:underline">
            Usage
          </Link>
          <Link href={routes.audit()} className="text-accent hover:underline">
            Audit
          </Link>
          {signedIn && <SignedIn {...signedIn} />}
        </nav>
      </header>
      <main className="flex min-h-0 flex-1 flex-col">
        <WriteAccessProvider refusal={writeRefusal(signedIn)}>{children}</WriteAccessProvider>
      </main>
    </div>
  );
}
