import { ask } from './dialog.js';
import { byId, h, onSubmit, refreshRegion, say, text } from './dom.js';
import { authRequest } from './session.js';
import { failureText } from './views.js';
import { keepTimesCurrent } from './when.js';

/** The login form: POST /auth/login, then on to the page the person came for. */
export function startLogin(): void {
  const form = byId<HTMLFormElement>('login-form');
  const error = byId('login-error');
  onSubmit(form, async (data) => {
    const answer = await authRequest('POST', '/auth/login', {
      email: text(data, 'email'),
      password: text(data, 'password'),
    });
    if (!answer.ok) {
      say(error, failureText(answer.failure), 'error');
      byId<HTMLInputElement>('login-password').focus();
      return;
    }
    location.assign(form.dataset.next ?? '/projects');
  });
}

/** The header's log-out button, on every signed-in page. */
export function bindLogout(): void {
  const form = document.getElementById('logout-form');
  if (!(form instanceof HTMLFormElement)) return;
  onSubmit(form, async () => {
    await authRequest('POST', '/auth/logout');
    location.assign('/login');
  });
}

/** Account → API tokens: issue (shown once, copy button), revoke; the list is the server's. */
export function startTokens(): void {
  keepTimesCurrent();
  const error = byId('token-error');
  const panel = byId('issued-token');
  const value = byId<HTMLInputElement>('issued-token-value');
  const copied = byId('copy-result');

  onSubmit(byId<HTMLFormElement>('issue-token-form'), async (data) => {
    say(error, '');
    const answer = await authRequest('POST', '/auth/tokens', { days: Number(text(data, 'days')) });
    if (!answer.ok) {
      say(error, failureText(answer.failure), 'error');
      return;
    }
    value.value = (answer.value as { token: string }).token;
    copied.textContent = '';
    panel.hidden = false;
    value.focus();
    value.select();
    await refreshRegion('token-list');
  });

  byId('copy-token').addEventListener('click', () => {
    void copy(value).then((done) => {
      copied.textContent = done ? 'Copied.' : 'Select the token and copy it.';
    });
  });

  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button.revoke-token');
    if (button) void revoke(button, error);
  });
}

/** Revokes a token after asking, in a dialog that names it. */
async function revoke(button: HTMLButtonElement, error: HTMLElement): Promise<void> {
  const prefix = `${button.dataset.tokenPrefix ?? ''}…`;
  const sure = await ask({
    title: `Revoke token ${prefix}?`,
    body: [
      h(
        'p',
        {},
        'Every script and service that uses ',
        h('code', {}, prefix),
        ' is refused from now on. A revoked token cannot be used again.',
      ),
    ],
    action: 'Revoke token',
  });
  if (!sure) return;
  button.disabled = true;
  const id = encodeURIComponent(button.dataset.tokenId ?? '');
  const answer = await authRequest('DELETE', `/auth/tokens/${id}`);
  say(error, answer.ok ? '' : failureText(answer.failure), answer.ok ? '' : 'error');
  say(byId('token-result'), answer.ok ? 'Revoked: that token no longer opens anything.' : '');
  await refreshRegion('token-list');
}

async function copy(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return false;
  }
}
