type LoginPanelProps = {
  team: boolean;
  failed: boolean;
  /** The page to go to once signed in (a checked path on this site), posted with the form; null: the home page. */
  returnTo: string | null;
  /** Who this browser is signed in as (a valid token came with the request), or null. */
  signedIn: { machine: string; role: string } | null;
  loginPath: string;
  logoutPath: string;
  /** The form field carrying `returnTo` (lib/team/return-to `RETURN_PARAM`). */
  returnField: string;
};

/**
 * A team server's sign-in form (issue 39): a plain HTML form (no script) posting the token (and
 * `returnTo` as the `returnField` field) to `/login`, which the server answers itself
 * (server/serve/dashboard-server) by setting an HttpOnly, SameSite=Strict cookie and going to that
 * page. `failed`: the last token was refused. A browser already `signedIn` is told so, with a link
 * to the dashboard and Sign out; no one else is offered Sign out. On a local dashboard (`team`
 * false) there is nothing to sign in to. `loginPath` / `logoutPath`: where the server takes the forms (lib/team/auth).
 */
export function LoginPanel({ team, failed, returnTo, signedIn, loginPath, logoutPath, returnField }: LoginPanelProps) {
  return (
    <div className="mx-auto mt-16 flex max-w-md flex-col gap-4 rounded-md border border-line bg-surface p-6">
      <h1 className="text-base font-semibold">Sign in to the team&apos;s Casefile</h1>
      {team ? (
        <>
          {signedIn && (
            <div aria-label="Signed in" className="flex flex-wrap items-center gap-2 rounded-md border border-line bg-canvas px-3 py-2 text-sm">
              <span>
                Signed in as <span className="font-mono">{signedIn.machine}</span> · {signedIn.role}.
              </span>
              <a href={returnTo ?? "/"} className="text-accent hover:underline">
                Go to the dashboard
              </a>
              <form method="post" action={logoutPath} className="ml-auto">
                <button type="submit" className="text-accent hover:underline">
                  Sign out
                </button>
              </form>
            </div>
          )}
          <form method="post" action={loginPath} className="flex flex-col gap-3">
            <label htmlFor="token" className="text-sm text-muted">
              Access token (from <code>casefile token create --machine NAME --role read</code>)
            </label>
            <input id="token" name="token" type="password" required autoComplete="off" spellCheck={false} placeholder="cft_…" className="rounded-md border border-line bg-transparent px-3 py-2 font-mono text-sm" />
            {returnTo && <input type="hidden" name={returnField} value={returnTo} />}
            {failed ? (
              <p role="alert" className="text-sm text-danger">
                That token is not valid: unknown or revoked.
              </p>
            ) : null}
            <button type="submit" className="self-start rounded-md border border-line px-3 py-1.5 text-sm font-medium hover:bg-canvas">
              {signedIn ? "Sign in with another token" : "Sign in"}
            </button>
          </form>
        </>
      ) : (
        <p className="text-sm text-muted">This Casefile serves one machine&apos;s workspace on this machine only: there is nothing to sign in to.</p>
      )}
    </div>
  );
}
