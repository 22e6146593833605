import { checkSave, blocksSave, readZip, v1, v2 } from '@galley/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer, attempt, refusal } from './answers.js';
import type { AgentSession } from './session.js';
import { ToolRefusal, elementHtml } from './session.js';

const ProjectId = z.string().describe('The project’s id (prj_…), as list_projects gives it');
const PageName = z.string().describe('The page: its id (pg_…) or its file (index.html)');
const onPage = { project_id: ProjectId, page: PageName };
const OUTLINE_PAGE = 200;

/** What a batch of operations is: each as the `operation` of POST /pages/{page}/operations. */
const Operations = z.array(v1.OperationRequest.shape.operation).min(1).max(500);

/** write_asset's arguments: the body of POST /assets, or with asset_id that of POST /assets/{id}/revisions. */
const createShape = v2.CreateAsset.options[0].shape;
const plainShape = v2.CreateAsset.options[1].shape;
const WriteAsset = z.object({
  asset_id: v2.AssetId.optional().describe(
    'Absent: register a new asset (the body of POST /assets). Given: a new revision of it (the body of POST /assets/{id}/revisions).',
  ),
  request_key: v2.NewRevision.shape.request_key.describe(
    'A new UUID per write; sending the same again replays the first answer',
  ),
  kind: z
    .union([createShape.kind, plainShape.kind])
    .optional()
    .describe('New asset: production, image, font or data'),
  title: plainShape.title.optional().describe('New asset: its title'),
  files: plainShape.files
    .optional()
    .describe(
      'New asset: its files, each {path} with one of json (and schema), text or blob (a sha256 from POST /blobs)',
    ),
  medium: createShape.medium
    .optional()
    .describe('New production: the medium it is made for, {id, version} (banner, 1)'),
  media_contract: createShape.media_contract
    .optional()
    .describe('New production: the media contract, {"version": "1.0"}'),
  base_revision: v2.NewRevision.shape.base_revision
    .optional()
    .describe('New revision: the revision it changes (refused when it is no longer the current)'),
  put: v2.NewRevision.shape.put
    .optional()
    .describe('New revision: files to add or replace, as in files'),
  remove: v2.NewRevision.shape.remove.optional().describe('New revision: paths of files to remove'),
});

/** list_assets's arguments: the query of GET /api/v2/assets, each said in words. */
const listShape = v2.AssetListQuery.shape;
const ListAssets = {
  q: listShape.q.describe('Text the title contains (any case)'),
  kind: listShape.kind.describe('Kinds to list, comma-separated: production, image, font, data'),
  medium: listShape.medium.describe(
    'Productions judged fit for this medium of the catalog (banner)',
  ),
  state: listShape.state.describe('active (the default), archived or deleted'),
  verdict: listShape.verdict.describe(
    'Only assets whose inspection passed, failed or is unchecked',
  ),
  sort: listShape.sort.describe('updated (newest change first, the default) or title'),
  page: listShape.page.describe('next_page_url’s `page` to go on'),
  per_page: listShape.per_page.describe('How many per answer, 1 to 200 in digits (50)'),
};

/** The tools, each a thin layer over the client (names and arguments are a contract). */
export function registerTools(server: McpServer, session: AgentSession): void {
  const { client } = session;

  server.registerTool(
    'list_projects',
    {
      description: 'The projects you can open, newest change first, with your role in each.',
      inputSchema: { cursor: z.string().optional().describe('next_page_url’s `page` to go on') },
    },
    ({ cursor }) =>
      attempt(async () =>
        answer(
          await client.v1.listProjects({ per_page: 100, ...(cursor ? { page: cursor } : {}) }),
        ),
      ),
  );

  server.registerTool(
    'open_project',
    {
      description: 'A project: its fields, its pages (id, file, title) and who holds its lock now.',
      inputSchema: { project_id: ProjectId },
    },
    ({ project_id }) =>
      attempt(async () => {
        const [project, pages, lock] = await Promise.all([
          client.v1.getProject(project_id),
          client.v1.listPages(project_id, { per_page: 200 }),
          client.v1.getLock(project_id),
        ]);
        return answer({ project, pages: pages.pages, more_pages: pages.next_page_url, ...lock });
      }),
  );

  server.registerTool(
    'read_page',
    {
      description:
        'Opens the page’s draft (taking the project’s lock as kind agent) and reads its outline: each element as `@n` (its `node`), tag, id, classes and text, paged by `offset`. With `element` (`#id` or `@n`), that element’s HTML instead.',
      inputSchema: {
        ...onPage,
        element: z
          .string()
          .regex(/^(#.+|@\d+)$/)
          .optional()
          .describe('`#id` or `@n`: this element’s HTML'),
        offset: z.number().int().min(0).optional().describe('First outline entry to give (0)'),
      },
    },
    ({ project_id, page, element, offset = 0 }) =>
      attempt(async () => {
        const draft = await session.draft(project_id, page);
        const head = { page: draft.page, can_undo: draft.canUndo, can_redo: draft.canRedo };
        if (element !== undefined) {
          const html = elementHtml(draft.html, element);
          if (html === null)
            throw new ToolRefusal(
              `The page has no element ${element}; read_page without element lists them.`,
            );
          return answer({ ...head, element, html });
        }
        const outline = draft.outline.slice(offset, offset + OUTLINE_PAGE);
        const next = offset + OUTLINE_PAGE < draft.outline.length ? offset + OUTLINE_PAGE : null;
        return answer({ ...head, total: draft.outline.length, offset, next_offset: next, outline });
      }),
  );

  server.registerTool(
    'apply_operations',
    {
      description:
        'Applies operations to the page’s draft one after another (each as the `operation` of POST /pages/{page}/operations: insert, swap, remove, move, set_attribute, …, aiming at `#id` or `@n`). Each is answered; the first refusal stops the batch and is returned with its errors (those before it stay applied: undo takes them back).',
      inputSchema: { ...onPage, operations: Operations },
    },
    ({ project_id, page, operations }) =>
      attempt(async () => {
        let draft = await session.known(project_id, page);
        const answers: unknown[] = [];
        for (const [index, operation] of operations.entries()) {
          try {
            const done = await client.v1.applyOperation(draft.page.id, {
              draft_token: draft.token,
              operation,
            });
            draft = session.moved(
              project_id,
              draft,
              done.draft_token,
              done.can_undo,
              done.can_redo,
            );
            answers.push({ index, result: done.result });
          } catch (error) {
            session.forget(project_id, draft.page.id);
            return refusal(
              error,
              `${appliedBefore(index, answers)} Operation ${index} was refused. `,
            );
          }
        }
        return answer({ applied: answers, can_undo: draft.canUndo, can_redo: draft.canRedo });
      }),
  );

  for (const direction of ['undo', 'redo'] as const) {
    server.registerTool(
      direction,
      {
        description: `${direction === 'undo' ? 'Takes back the last operation' : 'Applies again the last undone operation'} of the page’s draft.`,
        inputSchema: onPage,
      },
      ({ project_id, page }) =>
        attempt(async () => {
          const draft = await session.known(project_id, page);
          const move = direction === 'undo' ? client.v1.undoDraft : client.v1.redoDraft;
          const done = await move(draft.page.id).catch((error: unknown) => {
            session.forget(project_id, draft.page.id);
            throw error;
          });
          session.moved(project_id, draft, done.draft_token, done.can_undo, done.can_redo);
          return answer(done);
        }),
    );
  }

  server.registerTool(
    'check_page',
    {
      description:
        'Runs the folder checks on the project with the page’s draft in place: the same report the save runs. `blocks_save` says whether save_page would be refused.',
      inputSchema: onPage,
    },
    ({ project_id, page }) =>
      attempt(async () => {
        const draft = await session.draft(project_id, page);
        const zip = await client.v1.downloadFolder(project_id);
        const { folder } = readZip(zip.bytes);
        const report = checkSave({ folder, file: draft.page.file, html: draft.html });
        return answer({ blocks_save: blocksSave(report), report });
      }),
  );

  server.registerTool(
    'save_page',
    {
      description:
        'Saves the page’s draft as the project’s next revision (the checks run first; a refusal lists the violations). The answer has the commit_id: send it again to retry a save whose answer was lost.',
      inputSchema: { ...onPage, commit_id: v1.SaveRequest.shape.commit_id.optional() },
    },
    ({ project_id, page, commit_id }) =>
      attempt(async () => {
        const draft = await session.known(project_id, page);
        const id = commit_id ?? crypto.randomUUID();
        const saved = await client.v1.save(draft.page.id, {
          draft_token: draft.token,
          commit_id: id,
        });
        session.forget(project_id, draft.page.id);
        return answer({ ...saved, commit_id: id });
      }),
  );

  server.registerTool(
    'release_lock',
    {
      description:
        'Releases the project’s lock (unsaved drafts are kept for the next holder of yours).',
      inputSchema: { project_id: ProjectId },
    },
    ({ project_id }) =>
      attempt(async () => {
        await session.release(project_id);
        return answer({ released: true });
      }),
  );

  server.registerTool(
    'read_history',
    {
      description: 'The project’s saved revisions, newest first.',
      inputSchema: { project_id: ProjectId },
    },
    ({ project_id }) =>
      attempt(async () => answer(await client.v1.history(project_id, { per_page: 100 }))),
  );

  server.registerTool(
    'read_confirmations',
    {
      description: 'The versions people confirmed (confirming is for a person, on the screen).',
      inputSchema: { project_id: ProjectId },
    },
    ({ project_id }) =>
      attempt(async () => answer(await client.v1.listConfirmations(project_id, { per_page: 100 }))),
  );

  server.registerTool(
    'confirm_version',
    {
      description:
        'Asks to confirm the current revision as a version: only a person may (an agent is refused).',
      inputSchema: { project_id: ProjectId, note: v1.Confirm.shape.note },
    },
    ({ project_id, note }) =>
      attempt(async () =>
        answer(await client.v1.confirm(project_id, note === undefined ? {} : { note })),
      ),
  );

  server.registerTool(
    'list_assets',
    {
      description: 'Your assets (and the service’s fonts), filtered as GET /api/v2/assets filters.',
      inputSchema: ListAssets,
    },
    (query) => attempt(async () => answer(await client.v2.listAssets(query))),
  );

  server.registerTool(
    'read_asset',
    {
      description: 'An asset: its current (or given) revision, files and inspection.',
      inputSchema: {
        asset_id: v2.AssetId.describe('The asset’s id (ast_…), as list_assets gives it'),
        revision: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe('Which revision (its number); the current one when absent'),
      },
    },
    ({ asset_id, revision }) =>
      attempt(async () => answer(await client.v2.getAsset(asset_id, revision))),
  );

  server.registerTool(
    'write_asset',
    {
      description:
        'Registers an asset (the body of POST /assets) or, with asset_id, a new revision of it (the body of POST /assets/{id}/revisions: base_revision, put, remove). Binary files go first to POST /blobs. The same request_key replays the first answer.',
      inputSchema: WriteAsset.shape,
    },
    (args) =>
      attempt(async () => {
        const { asset_id, base_revision, put, remove, ...asset } = args;
        if (asset_id === undefined) {
          return answer(await client.v2.createAsset(v2.CreateAsset.parse(defined(asset))));
        }
        const revision = defined({ request_key: args.request_key, base_revision, put, remove });
        return answer(await client.v2.createRevision(asset_id, v2.NewRevision.parse(revision)));
      }),
  );
}

/** `value` without its undefined members (a strict schema counts them as given). */
function defined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/** What a batch refused at operation `refused` had done: `answers`, one for each before it. */
function appliedBefore(refused: number, answers: unknown[]): string {
  if (refused === 0) return 'No operation was applied.';
  const which = refused === 1 ? 'Operation 0 was' : `Operations 0 to ${refused - 1} were`;
  return `${which} applied (${JSON.stringify(answers)}).`;
}
