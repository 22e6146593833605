import { StoredNumber } from '@galley/core';
import { z } from 'zod';

/** Every URL the editing interface hands out, built from the one `base_url` setting. */
export class Urls {
  /** `{base_url}/api/v1` */
  readonly api: string;
  readonly #base: string;

  constructor(baseUrl: string) {
    this.#base = baseUrl;
    this.api = `${baseUrl}/api/v1`;
  }

  /** `url` of a Project: its path on the service. */
  projectPath(id: string): string {
    return `/projects/${id}`;
  }
  project(id: string): string {
    return `${this.api}/projects/${id}`;
  }
  editor(id: string): string {
    return `${this.#base}/projects/${id}/edit`;
  }
  folder(id: string): string {
    return `${this.api}/projects/${id}/folder`;
  }
  folderVersion(id: string, version: number): string {
    return `${this.folder(id)}/${version}`;
  }
  confirmation(id: string, confirmationId: string): string {
    return `${this.api}/projects/${id}/confirmations/${confirmationId}`;
  }

  /** `next_page_url`: absolute, carrying `per_page` and the opaque cursor; null on the last page. */
  nextPage(path: string, perPage: number, cursor: string | null): string | null {
    if (cursor === null) return null;
    const query = new URLSearchParams({ per_page: String(perPage), page: cursor });
    return `${this.api}${path}?${query.toString()}`;
  }
}

/** Cursors of the lists that continue below a number (history, confirmations). */
export const BelowCursor = z.strictObject({ below: StoredNumber });
