import type { GalleyClient } from '@galley/client';
import { Draft } from '@galley/core';
import type { v1 } from '@galley/core';
import type { z } from 'zod';

type DraftAnswer = z.output<typeof v1.DraftAnswer>;
type Page = z.output<typeof v1.Page>;

/** How often a held lock is renewed by default: well within its 60 seconds. */
export const RENEW_MS = 20_000;

/** The draft of a page as this session last knew it. */
export interface OpenDraft {
  page: Page;
  token: string;
  html: string;
  outline: DraftAnswer['outline'];
  canUndo: boolean;
  canRedo: boolean;
}

/**
 * One agent's work on Galley: the client (with its own `X-Editor-Client`), the locks it holds
 * (kind `agent`, renewed while the session lives, released when it ends) and the token of each
 * draft it has open, so tools take page names instead of tokens.
 */
export class AgentSession {
  readonly client: GalleyClient;
  /** The label of the locks it takes. */
  label: string;
  readonly #locks = new Map<string, NodeJS.Timeout>();
  readonly #drafts = new Map<string, OpenDraft>();
  readonly #renewMs: number;
  readonly #renew: (projectId: string) => Promise<boolean>;
  readonly #freshDrafts: boolean;
  #closed = false;

  constructor(options: {
    client: GalleyClient;
    label: string;
    /** How often each held lock is renewed (RENEW_MS). */
    renewMs?: number;
    /**
     * Renews a held lock; false when it is no longer the session's to keep (then renewing
     * stops). By default the lock is asked for again through the client.
     */
    renew?: (projectId: string) => Promise<boolean>;
    /**
     * Reads a draft's token from the service at every tool call instead of the one this session
     * last saw: another process serving the same session may have moved it since.
     */
    freshDrafts?: boolean;
  }) {
    this.client = options.client;
    this.label = options.label;
    this.#renewMs = options.renewMs ?? RENEW_MS;
    this.#renew = options.renew ?? ((projectId) => this.lock(projectId).then(() => true));
    this.#freshDrafts = options.freshDrafts === true;
  }

  /** Takes the project's lock (or renews it) as kind `agent`; renewed until released. */
  async lock(projectId: string): Promise<z.output<typeof v1.LockAnswer>> {
    const answer = await this.client.v1.lock(projectId, { kind: 'agent', label: this.label });
    if (!this.#locks.has(projectId) && !this.#closed) {
      const timer = setInterval(() => {
        // Lost (released elsewhere, taken over after an expiry, project gone): the next tool
        // call says so.
        const lost = () => this.#stopRenewing(projectId);
        this.#renew(projectId).then((kept) => kept || lost(), lost);
      }, this.#renewMs);
      timer.unref();
      this.#locks.set(projectId, timer);
    }
    return answer;
  }

  async release(projectId: string): Promise<void> {
    this.#stopRenewing(projectId);
    for (const key of this.#drafts.keys()) {
      if (key.startsWith(`${projectId} `)) this.#drafts.delete(key);
    }
    await this.client.v1.unlock(projectId);
  }

  /** Releases every lock the session holds (the session ends). */
  async close(): Promise<void> {
    const held = [...this.#locks.keys()];
    this.stop();
    await Promise.allSettled(held.map((id) => this.release(id)));
  }

  /** Stops renewing, releasing nothing: the session's locks are another's to release. */
  stop(): void {
    this.#closed = true;
    for (const projectId of [...this.#locks.keys()]) this.#stopRenewing(projectId);
  }

  /** The page by id (`pg_…`) or by file (`index.html`). */
  async page(projectId: string, page: string): Promise<Page> {
    let list = await this.client.v1.listPages(projectId, { per_page: 200 });
    for (;;) {
      const found = list.pages.find((p) => p.id === page || p.file === page);
      if (found) return found;
      if (!list.next_page_url) break;
      list = await this.client.v1.follow<typeof list>(list.next_page_url);
    }
    throw new ToolRefusal(
      `The project has no page “${page}”. Give a page id (pg_…) or a file such as index.html; open_project lists them.`,
    );
  }

  /** The page's draft as it is now: the lock is taken first, the draft opened when none is. */
  async draft(projectId: string, page: string): Promise<OpenDraft> {
    if (!this.#locks.has(projectId)) await this.lock(projectId);
    const found = await this.page(projectId, page);
    const answer = await this.client.v1.openDraft(found.id);
    return this.#remember(projectId, found, answer);
  }

  /** The draft this session last knew (opened now when it knows none). */
  async known(projectId: string, page: string): Promise<OpenDraft> {
    const found = await this.page(projectId, page);
    const known = this.#freshDrafts ? undefined : this.#drafts.get(`${projectId} ${found.id}`);
    return known ?? this.draft(projectId, found.id);
  }

  /** Records a draft's new token (after an operation, an undo or a redo). */
  moved(projectId: string, draft: OpenDraft, token: string, canUndo: boolean, canRedo: boolean) {
    const next = { ...draft, token, canUndo, canRedo };
    this.#drafts.set(`${projectId} ${draft.page.id}`, next);
    return next;
  }

  forget(projectId: string, pageId: string): void {
    this.#drafts.delete(`${projectId} ${pageId}`);
  }

  #remember(projectId: string, page: Page, answer: DraftAnswer): OpenDraft {
    const draft: OpenDraft = {
      page,
      token: answer.draft_token,
      html: answer.html,
      outline: answer.outline,
      canUndo: answer.can_undo,
      canRedo: answer.can_redo,
    };
    this.#drafts.set(`${projectId} ${page.id}`, draft);
    return draft;
  }

  #stopRenewing(projectId: string): void {
    clearInterval(this.#locks.get(projectId));
    this.#locks.delete(projectId);
  }
}

/** A refusal found before the service was asked, in words for the agent. */
export class ToolRefusal extends Error {}

/** The outer HTML of one element of `html`, by `#id` or `@n`; null when there is none. */
export function elementHtml(html: string, element: string): string | null {
  const opened = Draft.open(html);
  if (!opened.ok) return null;
  const { draft } = opened;
  let node: number | undefined;
  if (element.startsWith('@')) node = Number(element.slice(1));
  else if (element.startsWith('#'))
    node = draft.outline().find((e) => e.id === element.slice(1))?.node;
  const handle = node === undefined ? undefined : draft.elements.at(node);
  return handle ? draft.elements.outerHtml(handle) : null;
}
