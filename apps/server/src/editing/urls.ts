import { EDITING_ROOT, editingPaths, pathOf } from '@galley/core';

/** Every URL the editing interface hands out, built from the one `base_url` setting. */
export class Urls {
  /** `{base_url}/api/v1` */
  readonly api: string;
  readonly #base: string;

  constructor(baseUrl: string) {
    this.#base = baseUrl;
    this.api = `${baseUrl}${EDITING_ROOT}`;
  }

  /** `url` of a Project: its path on the service (the screen's page, the interface's path). */
  projectPath(id: string): string {
    return pathOf(editingPaths.getProject, { id });
  }
  project(id: string): string {
    return `${this.api}${this.projectPath(id)}`;
  }
  editor(id: string): string {
    return `${this.#base}/projects/${id}/edit`;
  }
  folder(id: string): string {
    return `${this.api}${pathOf(editingPaths.downloadFolder, { id })}`;
  }
  folderVersion(id: string, version: number): string {
    return `${this.api}${pathOf(editingPaths.downloadVersion, { id, version })}`;
  }
  confirmation(id: string, confirmationId: string): string {
    return `${this.api}${pathOf(editingPaths.getConfirmation, { id, confirmation: confirmationId })}`;
  }

  /** `next_page_url`: absolute, carrying `per_page` and the opaque cursor; null on the last page. */
  nextPage(
    route: keyof typeof editingPaths,
    params: Record<string, string>,
    perPage: number,
    cursor: string | null,
  ): string | null {
    if (cursor === null) return null;
    const query = new URLSearchParams({ per_page: String(perPage), page: cursor });
    return `${this.api}${pathOf(editingPaths[route], params)}?${query.toString()}`;
  }
}
