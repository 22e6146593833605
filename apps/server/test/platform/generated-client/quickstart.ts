// The quickstart of both interfaces as a newcomer writes it with a generated client: the types
// openapi-typescript makes from docs/api/*.openapi.json (./generated/, as checked in) and
// openapi-fetch, and nothing else: no cast, no `any`. Each walk returns what every step was
// answered (status, body), for the test to check.
import { createHash } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components as Editing, paths as EditingPaths } from './generated/v1.js';
import type { components as Assets, paths as AssetPaths } from './generated/v2.js';

export interface Setup {
  /** The service's origin, `http://localhost:8080`. */
  baseUrl: string;
  token: string;
}

/** A step that succeeded: its status, headers and what it answered. */
interface Step<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** The answer of a call that must succeed; a refusal throws with its problem. */
async function ok<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Step<T>> {
  const { data, error, response } = await call;
  if (data === undefined) throw new Error(`${response.status}: ${JSON.stringify(error)}`);
  return { status: response.status, headers: response.headers, body: data };
}

/**
 * A generated client sends bodies as JSON: a multipart form is built by the caller, each file
 * field a `Blob` (a `File` gives its part a file name).
 */
function formData(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(name, value);
    else if (typeof value === 'string') form.append(name, value);
  }
  return form;
}

/** Bytes are sent as they are, not as JSON. */
const asIs = (body: unknown) => body;

const sha256 = (bytes: ArrayBuffer | Uint8Array) =>
  createHash('sha256').update(new Uint8Array(bytes)).digest('hex');

/**
 * docs/quickstart.md's walk: a project from a ZIP, the lock, a draft, an operation, a save, and
 * the folder exported.
 */
export async function editingQuickstart(setup: Setup, zip: Uint8Array) {
  const galley = createClient<EditingPaths>({
    baseUrl: `${setup.baseUrl}/api/v1`,
    headers: { Authorization: `Bearer ${setup.token}` },
  });
  const header = { 'X-Editor-Client': `quickstart-${crypto.randomUUID()}` };

  const created = await ok(
    galley.POST('/projects/folder', {
      params: { header },
      body: { zip: new File([zip], 'hello.zip', { type: 'application/zip' }) },
      bodySerializer: formData,
    }),
  );
  const project: Editing['schemas']['CreatedProject'] = created.body;
  const id = { id: project.id };
  const pages = await ok(galley.GET('/projects/{id}/pages', { params: { path: id } }));
  const page = { page: pages.body.pages[0]?.id ?? '' };

  const lock = await ok(
    galley.PUT('/projects/{id}/lock', {
      params: { path: id, header },
      body: { kind: 'agent', label: 'quickstart' },
    }),
  );
  const draft = await ok(galley.GET('/pages/{page}/draft', { params: { path: page, header } }));
  const operation: Editing['schemas']['Operation'] = {
    kind: 'insert',
    parent: '#main',
    html: '<p id="news">Made with a generated client.</p>',
  };
  const changed = await ok(
    galley.POST('/pages/{page}/operations', {
      params: { path: page, header },
      body: { draft_token: draft.body.draft_token, operation },
    }),
  );
  const saved = await ok(
    galley.PUT('/pages/{page}/operations', {
      params: { path: page, header },
      body: { draft_token: changed.body.draft_token, commit_id: crypto.randomUUID() },
    }),
  );
  const released = await galley.DELETE('/projects/{id}/lock', { params: { path: id, header } });

  const exported = await ok(
    galley.GET('/projects/{id}/folder', { params: { path: id }, parseAs: 'arrayBuffer' }),
  );
  return {
    created,
    pages,
    lock,
    draft,
    changed,
    saved,
    released: released.response.status,
    exported: {
      status: exported.status,
      sha256: sha256(exported.body),
      declared: exported.headers.get('X-Content-SHA256'),
    },
  };
}

/**
 * The asset interface's walk: bytes uploaded as a blob and registered by JSON naming it, an
 * image registered by multipart, a revision putting other uploaded bytes (and the refusal of a
 * stale one, told apart by its `code`), and the file read back.
 */
export async function assetQuickstart(setup: Setup, logo: Uint8Array, icon: Uint8Array) {
  const assets = createClient<AssetPaths>({
    baseUrl: `${setup.baseUrl}/api/v2`,
    headers: { Authorization: `Bearer ${setup.token}` },
  });

  const upload = (bytes: Uint8Array) =>
    ok(
      assets.POST('/blobs', {
        body: bytes,
        bodySerializer: asIs,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    );
  const blob = await upload(logo);
  const file: Assets['schemas']['FileSpec'] = { path: 'logo.png', blob: blob.body.sha256 };
  const byJson = await ok(
    assets.POST('/assets', {
      body: { request_key: crypto.randomUUID(), kind: 'image', title: 'Logo', files: [file] },
    }),
  );
  const byForm = await ok(
    assets.POST('/assets', {
      body: {
        request_key: crypto.randomUUID(),
        kind: 'image',
        title: 'Icon',
        file: new File([icon], 'Icon.PNG', { type: 'image/png' }),
      },
      bodySerializer: formData,
    }),
  );
  const asset: Assets['schemas']['Asset'] = byJson.body.asset;
  const id = { id: asset.id };
  const next = await upload(icon);
  const revised = await ok(
    assets.POST('/assets/{id}/revisions', {
      params: { path: id },
      body: {
        request_key: crypto.randomUUID(),
        base_revision: asset.revision.number,
        put: [{ path: 'logo.png', blob: next.body.sha256 }],
      },
    }),
  );
  const stale = await assets.POST('/assets/{id}/revisions', {
    params: { path: id },
    body: { request_key: crypto.randomUUID(), base_revision: asset.revision.number },
  });
  const conflict =
    stale.error?.code === 'revision_conflict'
      ? { status: stale.response.status, current_revision: stale.error.current_revision }
      : null;
  const read = await ok(
    assets.GET('/assets/{id}/files/{path}', {
      params: { path: { ...id, path: 'logo.png' } },
      parseAs: 'arrayBuffer',
    }),
  );
  return {
    blob,
    next,
    byJson,
    byForm,
    revised,
    conflict,
    read: { status: read.status, sha256: sha256(read.body) },
  };
}
