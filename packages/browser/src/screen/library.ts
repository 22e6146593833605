import type * as Galley from '../index.js';
import { ScreenError, within } from './dom.js';
import { csrfToken, editorClientId, screenFetch } from './session.js';

export type Library = typeof Galley;
export type Client = Galley.GalleyClient;

/** The library bundle (`galley.min.js`), loaded before this script on the pages that need it. */
export function library(): Library {
  const lib = (globalThis as { Galley?: Library }).Galley;
  if (!lib) throw new ScreenError('missing_library', 'galley.min.js did not load.');
  return lib;
}

/** The typed client for this origin, as this tab's editor client, with the session's CSRF token. */
export function screenClient(): Client {
  const lib = library();
  return lib.createClient({
    baseUrl: location.origin,
    csrfToken: csrfToken(),
    editorClient: editorClientId(),
    fetch: screenFetch,
  });
}

/** Every item of a paged list: follows `next_page_url` (within this origin) to the end. */
export async function allPages<T, K extends string>(
  client: Client,
  first: Record<K, T[]> & { next_page_url: string | null },
  key: K,
): Promise<T[]> {
  const items = [...first[key]];
  let next = first.next_page_url;
  while (next) {
    const more = await client.v1.follow<Record<K, T[]> & { next_page_url: string | null }>(
      within(next),
    );
    items.push(...more[key]);
    next = more.next_page_url;
  }
  return items;
}
