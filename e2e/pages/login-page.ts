import type { Page } from "@playwright/test";

/** A team server's sign-in page (`/login`) and the header's signed-in caller with its Sign out (issue 39). */
export class LoginPage {
  constructor(readonly page: Page) {}

  heading() {
    return this.page.getByRole("heading", { name: "Sign in to the team's Casefile" });
  }

  tokenField() {
    return this.page.getByLabel(/Access token/);
  }

  /** The refusal the form shows after an unknown or revoked token. */
  refusal() {
    return this.page.getByRole("alert").filter({ hasText: "not valid" });
  }

  /** Fills the token and submits (`button`: "Sign in with another token" when already signed in). */
  async signIn(token: string, button = "Sign in") {
    await this.tokenField().fill(token);
    await this.page.getByRole("button", { name: button, exact: true }).click();
  }

  /** The login page's own "Signed in as …" for a browser that is (the login page has no header). */
  panelSignedIn() {
    return this.page.getByLabel("Signed in");
  }

  /** The header's "machine · role" of the signed-in token. */
  signedIn() {
    return this.page.getByRole("banner").getByLabel("Signed in");
  }

  async signOut() {
    await this.signedIn().getByRole("button", { name: "Sign out" }).click();
  }
}
