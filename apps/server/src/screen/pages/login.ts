import { html } from '../html.js';
import type { SafeHtml } from '../html.js';

/** E-mail and password; the page script posts them to /auth/login and follows `next`. */
export function loginBody(next: string): SafeHtml {
  return html`<form
      id="login-form"
      class="card narrow"
      method="post"
      action="/auth/login"
      data-next="${next}"
    >
      <p>
        <label for="login-email">E-mail</label>
        <input id="login-email" name="email" type="email" autocomplete="username" required />
      </p>
      <p>
        <label for="login-password">Password</label>
        <input
          id="login-password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
        />
      </p>
      <p><button type="submit">Log in</button></p>
      <p id="login-error" class="error" role="alert" hidden></p>
    </form>
    <p class="hint">Accounts are issued by the service office.</p>`;
}
