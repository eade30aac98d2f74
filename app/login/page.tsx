import type { Metadata } from "next";

import { LoginPanel } from "@/components/team/login-panel";
import { LOGIN_PATH, LOGOUT_PATH } from "@/lib/team/auth";

export const metadata: Metadata = { title: "Sign in" };

type LoginPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** `/login`: a team server's sign-in form (issue 39); the server itself answers its POST. */
export default async function LoginPage({ searchParams }: LoginPageProps) {
  const { failed } = await searchParams;
  return <LoginPanel team={process.env.CASEFILE_TEAM_SERVER === "1"} failed={failed === "1"} loginPath={LOGIN_PATH} logoutPath={LOGOUT_PATH} />;
}
