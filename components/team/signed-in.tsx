/** Who is signed in to a team server (issue 39): the token's machine and role, and where the browser signs out. */
export type SignedInAs = { machine: string; role: string; logoutPath: string };

/**
 * A team server's signed-in caller in the dashboard's header: the token's machine and role, and
 * a sign-out form posting to `logoutPath` (the server clears the login cookie and goes to the
 * login page). A plain form: it works without script, as the login form does.
 */
export function SignedIn({ machine, role, logoutPath }: SignedInAs) {
  return (
    <div className="flex items-center gap-2 border-l border-line pl-3 text-xs" aria-label="Signed in">
      <span className="hidden text-muted sm:inline" title={`signed in with a ${role} token of machine ${machine}`}>
        <span className="font-mono text-ink">{machine}</span> · {role}
      </span>
      <form method="post" action={logoutPath}>
        <button type="submit" className="whitespace-nowrap text-accent hover:underline" title={`signed in with a ${role} token of machine ${machine}`}>
          Sign out
        </button>
      </form>
    </div>
  );
}
