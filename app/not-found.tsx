import { AppFrame } from "@/components/navigation/app-frame";
import { NotFoundNotice } from "@/components/navigation/not-found-notice";
import { isDemoWorkspaceQuery, signedInQuery } from "@/server/queries/workspace";

/**
 * Any URL no route answers, and the pages of an unknown project or session (proxy.ts rewrites
 * them to a path no route serves, with status 404): the dashboard's frame and the way home, not
 * Next's bare default page.
 */
export default async function NotFound() {
  return (
    <AppFrame demo={await isDemoWorkspaceQuery()} signedIn={signedInQuery()}>
      <NotFoundNotice />
    </AppFrame>
  );
}
