import { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS } from '@galley/store';
import type { TokenRecord } from '@galley/store';
import { html } from '../html.js';
import type { SafeHtml } from '../html.js';

function status(token: TokenRecord, now: Date): string {
  if (token.revokedAt) return 'revoked';
  return new Date(token.expiresAt) <= now ? 'expired' : 'active';
}

/**
 * A readable ISO form (`2030-01-01 12:00:00+00:00`); the page script, which knows the person's
 * time zone, shows it relative and in that zone (the server does not know the zone).
 */
const time = (iso: string | null) =>
  iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+/, '')}</time>` : '—';

/** The token list (a region the page script re-reads from this page after each change). */
export function tokenTable(tokens: readonly TokenRecord[], now: Date): SafeHtml {
  if (tokens.length === 0)
    return html`<div id="token-list" data-region><p>No API tokens yet.</p></div>`;
  const rows = tokens.map((t) => {
    const state = status(t, now);
    const revoke =
      state === 'active'
        ? html`<button
            type="button"
            class="revoke-token"
            data-token-id="${t.id}"
            data-token-prefix="${t.prefix}"
            aria-label="Revoke token ${t.prefix}"
          >
            Revoke
          </button>`
        : '';
    return html`<tr data-token-row="${t.id}">
      <td data-label="Prefix"><code>${t.prefix}…</code></td>
      <td data-label="Created">${time(t.createdAt)}</td>
      <td data-label="Expires">${time(t.expiresAt)}</td>
      <td data-label="Last used">${time(t.lastUsedAt)}</td>
      <td data-label="State">${state}</td>
      <td>${revoke}</td>
    </tr>`;
  });
  return html`<div id="token-list" data-region>
    <table class="stack">
      <caption>
        Your API tokens
      </caption>
      <thead>
        <tr>
          <th scope="col">Prefix</th>
          <th scope="col">Created</th>
          <th scope="col">Expires</th>
          <th scope="col">Last used</th>
          <th scope="col">State</th>
          <th scope="col"><span class="sr-only">Actions</span></th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}

/** Account → API tokens: issue (shown once, with a copy button), list, revoke. */
export function tokensBody(tokens: readonly TokenRecord[], now: Date): SafeHtml {
  return html`<section aria-labelledby="issue-heading" class="card">
      <h2 id="issue-heading">Issue a token</h2>
      <p>
        A token acts with your account's permissions on <code>/api/v1</code> and
        <code>/api/v2</code>. It is shown once, here, right after it is issued.
      </p>
      <form id="issue-token-form" method="post" action="/auth/tokens">
        <p>
          <label for="token-days">Valid for (days)</label>
          <input
            id="token-days"
            name="days"
            type="number"
            min="1"
            max="${String(MAX_TOKEN_DAYS)}"
            value="${String(DEFAULT_TOKEN_DAYS)}"
            required
          />
        </p>
        <p><button type="submit">Issue token</button></p>
      </form>
      <div id="issued-token" class="issued" hidden>
        <p role="status"><strong>Copy this token now: it will not be shown again.</strong></p>
        <p>
          <label for="issued-token-value">New token</label>
          <input id="issued-token-value" type="text" readonly class="mono" />
          <button type="button" id="copy-token">Copy</button>
          <span id="copy-result" role="status"></span>
        </p>
      </div>
      <p id="token-error" class="error" role="alert" hidden></p>
      <p id="token-result" role="status" hidden></p>
    </section>
    <section aria-labelledby="tokens-heading" class="card">
      <h2 id="tokens-heading">Tokens</h2>
      ${tokenTable(tokens, now)}
    </section>`;
}
