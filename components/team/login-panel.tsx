/**
 * A team server's sign-in form (issue 39): a plain HTML form (no script) posting the token to
 * `/login`, which the server answers itself (server/serve/dashboard-server) by setting an
 * HttpOnly, SameSite=Strict cookie and going to the dashboard. `failed`: the last token was refused.
 * On a local dashboard (`team` false) there is nothing to sign in to. `loginPath` / `logoutPath`:
 * where the server takes the form (lib/team/auth).
 */
export function LoginPanel({ team, failed, loginPath, logoutPath }: { team: boolean; failed: boolean; loginPath: string; logoutPath: string }) {
  return (
    <div className="mx-auto mt-16 flex max-w-md flex-col gap-4 rounded-md border border-line bg-surface p-6">
      <h1 className="text-base font-semibold">Sign in to the team&apos;s Casefile</h1>
      {team ? (
        <>
          <form method="post" action={loginPath} className="flex flex-col gap-3">
            <label htmlFor="token" className="text-sm text-muted">
              Access token (from <code>casefile token create --machine NAME --role read</code>)
            </label>
            <input id="token" name="token" type="password" required autoComplete="off" spellCheck={false} placeholder="cft_…" className="rounded-md border border-line bg-transparent px-3 py-2 font-mono text-sm" />
            {failed ? (
              <p role="alert" className="text-sm text-danger">
                That token is not valid: unknown or revoked.
              </p>
            ) : null}
            <button type="submit" className="self-start rounded-md border border-line px-3 py-1.5 text-sm font-medium hover:bg-canvas">
              Sign in
            </button>
          </form>
          <form method="post" action={logoutPath}>
            <button type="submit" className="text-sm text-accent hover:underline">
              Sign out
            </button>
          </form>
        </>
      ) : (
        <p className="text-sm text-muted">This Casefile serves one machine&apos;s workspace on this machine only: there is nothing to sign in to.</p>
      )}
    </div>
  );
}
