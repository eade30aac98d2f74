import type { Metadata } from "next";

import { LoginPanel } from "@/components/team/login-panel";
import { LOGIN_PATH, LOGOUT_PATH } from "@/lib/team/auth";
import { RETURN_PARAM, safeReturnPath } from "@/lib/team/return-to";
import { signedInQuery } from "@/server/queries/workspace";

export const metadata: Metadata = { title: "Sign in" };

type LoginPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * `/login`: a team server's sign-in form (issue 39); the server itself answers its POST. It keeps
 * `?next=` (a path on this site) for the form, and names who is signed in, with Sign out, only
 * when the request carries a valid token (the server runs it as that token's actor then).
 */
export default async function LoginPage({ searchParams }: LoginPageProps) {
  const search = await searchParams;
  const signedIn = signedInQuery();
  return (
    <LoginPanel
      team={process.env.CASEFILE_TEAM_SERVER === "1"}
      failed={search.failed === "1"}
      returnTo={safeReturnPath(search[RETURN_PARAM])}
      signedIn={signedIn && { machine: signedIn.machine, role: signedIn.role }}
      loginPath={LOGIN_PATH}
      logoutPath={LOGOUT_PATH}
      returnField={RETURN_PARAM}
    />
  );
}
