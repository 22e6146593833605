// The answer bodies of the editing interface, exactly as editing-api-v1.md and decisions.md
// name their fields. Store records in, JSON out; nothing here reads or writes anything.
import { findMedium } from '@galley/core';
import type { v1 } from '@galley/core';
import type {
  ConfirmationRecord,
  HistoryEntryRecord,
  LockRecord,
  MemberRecord,
  ProjectAccess,
  RevisionState,
  UnsavedDraft as UnsavedDraftRecord,
} from '@galley/store';
import type { z } from 'zod';
import type { Urls } from './urls.js';

type Out<S extends z.ZodType> = z.output<S>;

export const LOCK_TTL_SECONDS = 60;

export function projectBody(urls: Urls, { project, role }: ProjectAccess): Out<typeof v1.Project> {
  return {
    id: project.id,
    title: project.title,
    media: project.media,
    medium: findMedium(project.media)?.label ?? project.media.id,
    role,
    owner: role === 'owner',
    pages: project.pageCount,
    revision: project.revision,
    created_at: project.createdAt,
    updated_at: project.updatedAt,
    url: urls.projectPath(project.id),
    editor_url: urls.editor(project.id),
    folder_url: urls.folder(project.id),
  };
}

type PageItem = Omit<Out<typeof v1.Page>, 'unsaved_draft'>;

/** The page list of a revision, in project.json order (see `withUnsavedDrafts`). */
export function pageItems(state: RevisionState, pageIds: ReadonlyMap<string, string>): PageItem[] {
  return state.pages.map((page) => {
    const file = state.manifest.get(page.file);
    return {
      id: pageIds.get(page.file) ?? '',
      file: page.file,
      title: page.title,
      public_url: page.public_url,
      size: file?.size ?? 0,
      sha256: file?.sha256 ?? '',
      revision: file?.revision ?? state.revision,
    };
  });
}

/** Page list items with their `unsaved_draft` (by page id; absent: null). */
export function withUnsavedDrafts(
  items: readonly PageItem[],
  unsaved: ReadonlyMap<string, UnsavedDraftRecord>,
): Out<typeof v1.Page>[] {
  return items.map((item) => {
    const draft = unsaved.get(item.id);
    return {
      ...item,
      unsaved_draft: draft
        ? {
            by: { name: draft.byName },
            base_revision: draft.baseRevision,
            updated_at: draft.updatedAt,
          }
        : null,
    };
  });
}

export function memberBody(member: MemberRecord): Out<typeof v1.Member> {
  return {
    id: String(member.accountNumber),
    name: member.name,
    email: member.email,
    role: member.role,
  };
}

export function lockBody(lock: LockRecord): Out<typeof v1.Lock> {
  // The held lock's members, with when it was taken before when it ends (the documents' order).
  const { expires_at, ...held } = heldLockBody(lock);
  return { ...held, acquired_at: lock.acquiredAt, expires_at, ttl_seconds: LOCK_TTL_SECONDS };
}

/** GET lock (and the `lock` event of a page's stream): the lock in force, or null. */
export function lockState(lock: LockRecord | null): Out<typeof v1.LockState> {
  return { lock: lock ? lockBody(lock) : null };
}

/** The `lock` of a 423: who holds it and until when. */
export function heldLockBody(lock: LockRecord): Out<typeof v1.HeldLock> {
  return {
    kind: lock.kind,
    label: lock.label,
    holder: { name: lock.holderName },
    expires_at: lock.expiresAt,
  };
}

export function historyEntryBody(entry: HistoryEntryRecord): Out<typeof v1.HistoryEntry> {
  return {
    revision: entry.revision,
    kind: entry.kind,
    ...(entry.page ? { page: entry.page } : {}),
    summary: entry.summary,
    by: { name: entry.byName },
    at: entry.at,
    ...(entry.commitId ? { commit_id: entry.commitId } : {}),
  };
}

export function confirmationBody(
  urls: Urls,
  confirmation: ConfirmationRecord,
  current: RevisionState,
): Out<typeof v1.Confirmation> {
  return {
    id: confirmation.id,
    version: confirmation.version,
    revision: confirmation.revision,
    sha256: confirmation.sha256,
    note: confirmation.note,
    confirmed_at: confirmation.confirmedAt,
    confirmed_by: { name: confirmation.byName },
    download_url: urls.folderVersion(confirmation.projectId, confirmation.version),
    has_unconfirmed_changes: current.contentDigest !== confirmation.contentDigest,
  };
}
