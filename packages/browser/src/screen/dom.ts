// Small DOM helpers for the screen's page script: elements are built with text nodes only, so
// nothing from the service is ever parsed as markup.
import { screenFetch, sessionEnded } from './session.js';
import { formatTimeElement, formatTimes } from './when.js';

export type Child = Node | string | number | null | undefined | false | readonly Child[];
export type Attributes = Readonly<Record<string, string | number | boolean | null | undefined>>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...flatten(children));
  return element;
}

function flatten(children: readonly Child[]): (Node | string)[] {
  return children.flatMap((child): (Node | string)[] => {
    if (child === null || child === undefined || child === false) return [];
    if (Array.isArray(child)) return flatten(child as readonly Child[]);
    return [typeof child === 'number' ? String(child) : (child as Node | string)];
  });
}

/** A server-rendered element the page script relies on. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new ScreenError('missing_element', `The page has no #${id}.`);
  return element as T;
}

export class ScreenError extends Error {
  constructor(
    readonly code: 'missing_element' | 'missing_library' | 'missing_data',
    message: string,
  ) {
    super(message);
    this.name = 'ScreenError';
  }
}

/** Replaces an element's content. */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren(...flatten(children));
}

/** Shows a message in an alert or status element (hidden when the message is empty). */
export function say(element: HTMLElement, message: string, tone: 'ok' | 'error' | '' = ''): void {
  element.textContent = message;
  element.hidden = message === '';
  element.classList.toggle('error', tone === 'error');
  element.classList.toggle('ok', tone === 'ok');
}

/**
 * The path, query and fragment of a URL from an answer of the service. Answers carry absolute URLs
 * built from the service's configured base URL; a page links within the origin that served it,
 * since under another host name of the same server an absolute link would leave the session.
 */
export function within(url: string): string {
  const { pathname, search, hash } = new URL(url, location.href);
  return `/${pathname.replace(/^\/+/, '')}${search}${hash}`;
}

/**
 * A time in the person's zone: relative text ("5 minutes ago"), the full date as its title, the
 * instant in `datetime`; `clock` puts the time of day first ("14:02 · 5 minutes ago").
 */
export function time(iso: string | null | undefined, options: { clock?: boolean } = {}): Child {
  if (!iso) return '—';
  const element = h('time', { datetime: iso, 'data-clock': options.clock }, iso);
  formatTimeElement(element);
  return element;
}

/** One row of a `dataTable`: the row's attributes and its cells, one per column. */
export type Row = readonly [Attributes, readonly Child[]];

/** One column of a `dataTable`: its heading, and whether the heading is for screen readers only. */
export type Column = string | { readonly name: string; readonly hidden: true };

/**
 * A table whose cells carry their column's name (`data-label`), so that on a narrow screen each
 * row stacks into labelled lines (style.ts) instead of squeezing its columns letter by letter.
 */
export function dataTable(options: {
  readonly caption: string;
  readonly columns: readonly Column[];
  readonly rows: readonly Row[];
}): HTMLTableElement {
  return h(
    'table',
    { class: 'stack' },
    h('caption', { class: 'sr-only' }, options.caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        options.columns.map((c) =>
          h(
            'th',
            { scope: 'col' },
            typeof c === 'string' ? c : h('span', { class: 'sr-only' }, c.name),
          ),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      options.rows.map(([attributes, cells]) =>
        h(
          'tr',
          attributes,
          cells.map((cell, i) => h('td', { 'data-label': labelOf(options.columns[i]) }, cell)),
        ),
      ),
    ),
  );
}

const labelOf = (column: Column | undefined) => (typeof column === 'string' ? column : undefined);

/**
 * Re-reads this page from the server and swaps in the fresh copy of one region, so lists that the
 * server renders are rendered in one place only.
 */
export async function refreshRegion(id: string): Promise<void> {
  const response = await screenFetch(location.href, { credentials: 'same-origin' });
  // Without a session the page answers with a redirect to the login page.
  if (response.redirected && new URL(response.url).pathname === '/login') return sessionEnded();
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html');
  const region = fresh.getElementById(id);
  if (!region) return;
  const imported = document.importNode(region, true);
  formatTimes(imported);
  byId(id).replaceWith(imported);
}

/**
 * Whether `shown` differs from what `region` shows now, noting it as shown: a list read again
 * (the page's poll, another person's change) is drawn again only when it changed, so the focus
 * and the reader's place in it stay where they were.
 */
export function changedIn(region: HTMLElement, shown: unknown): boolean {
  const key = JSON.stringify(shown);
  if (region.dataset.key === key && region.hasChildNodes()) return false;
  region.dataset.key = key;
  return true;
}

/** Runs a form's handler on submit (no page load), with its submit buttons disabled meanwhile. */
export function onSubmit(form: HTMLFormElement, handler: (data: FormData) => Promise<void>): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const buttons = [...form.querySelectorAll<HTMLButtonElement>('button[type=submit]')];
    for (const b of buttons) b.disabled = true;
    void handler(new FormData(form)).finally(() => {
      for (const b of buttons) b.disabled = false;
    });
  });
}

export function text(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
