// Examples of the editing interface's operations: the quickstart's walk (a project of one page,
// its lock, a draft, an insert, a save, a confirmed version), by route name.
import { at, ids, schemaExample, sha256, webhookExamples } from './example-values.js';

const base = 'http://localhost:8080';
const project = {
  id: ids.project,
  title: 'Hello',
  media: { id: 'web', version: 1 },
  medium: 'web',
  role: 'owner',
  owner: true,
  pages: 1,
  revision: 2,
  created_at: at(0),
  updated_at: at(5),
  url: `/projects/${ids.project}`,
  editor_url: `${base}/projects/${ids.project}/edit`,
  folder_url: `${base}/api/v1/projects/${ids.project}/folder`,
};
const created = { ...project, revision: 1, updated_at: at(0) };
const byProject = { params: { id: ids.project } };
const byPage = { params: { page: ids.page } };
const pageRef = { id: ids.page, file: 'index.html' };
const ada = { name: 'Ada' };
const lock = {
  kind: 'agent',
  label: 'quickstart',
  holder: ada,
  acquired_at: at(1),
  expires_at: at(2),
  ttl_seconds: 60,
};
const html = '<main id="main"><h1>Hello</h1><p id="news">Made with curl.</p></main>';
const outline = [
  { node: 1, tag: 'main', id: 'main', classes: [], text: 'Hello Made with curl.' },
  { node: 2, tag: 'h1', id: null, classes: [], text: 'Hello' },
  { node: 3, tag: 'p', id: 'news', classes: [], text: 'Made with curl.' },
];
const insert = { kind: 'insert', parent: '#main', html: '<p id="news">Made with curl.</p>' };
const changed = {
  draft_token: 'dt_5f2c9a',
  result: { nodes: ['@3'], ids: ['news'] },
  can_undo: true,
  can_redo: false,
};
const member = { id: '1001', name: 'Ada', email: 'ada@example.org', role: 'owner' };
const confirmation = {
  id: ids.confirmation,
  version: 1,
  revision: 2,
  sha256: sha256.zip,
  note: 'first version',
  confirmed_at: at(9),
  confirmed_by: ada,
  download_url: `${base}/api/v1/projects/${ids.project}/folder/1`,
  has_unconfirmed_changes: false,
};

export const editingExamples = {
  listProjects: { answer: { projects: [project], next_page_url: null } },
  createProject: { answer: created },
  getProject: { ...byProject, answer: project },
  renameProject: { ...byProject, request: { title: 'Hello again' }, answer: project },
  deleteProject: byProject,
  downloadFolder: byProject,
  downloadVersion: { params: { id: ids.project, version: '1' } },
  replaceFolder: { ...byProject, answer: project },
  listPages: {
    ...byProject,
    answer: {
      pages: [
        {
          ...pageRef,
          title: 'Home',
          public_url: '/',
          size: 178,
          sha256: sha256.page,
          revision: 2,
          unsaved_draft: null,
        },
      ],
      next_page_url: null,
    },
  },
  listMembers: { ...byProject, answer: { members: [member], next_page_url: null } },
  putMember: {
    ...byProject,
    request: { email: 'grace@example.org', role: 'editor' },
    answer: {
      members: [member, { id: '1002', name: 'Grace', email: 'grace@example.org', role: 'editor' }],
    },
  },
  removeMember: { params: { id: ids.project, user: '1002' }, answer: { members: [member] } },
  getLock: { ...byProject, answer: { lock } },
  takeLock: { ...byProject, request: { kind: 'agent', label: 'quickstart' }, answer: { lock } },
  releaseLock: byProject,
  history: {
    ...byProject,
    answer: {
      revision: 2,
      can_undo: true,
      can_redo: false,
      entries: [
        {
          revision: 2,
          kind: 'save',
          page: pageRef,
          summary: 'Saved index.html',
          by: ada,
          at: at(5),
          commit_id: '9b2e4c6a-1d3f-4a5b-8c7d-0e9f1a2b3c4d',
        },
        { revision: 1, kind: 'create', summary: 'Created', by: ada, at: at(0) },
      ],
      next_page_url: null,
    },
  },
  moveHistory: {
    ...byProject,
    request: { direction: 'undo', revision: 2 },
    answer: { ...project, revision: 3 },
  },
  latestConfirmation: { ...byProject, answer: confirmation },
  getConfirmation: {
    params: { id: ids.project, confirmation: ids.confirmation },
    answer: confirmation,
  },
  listConfirmations: {
    ...byProject,
    answer: { confirmations: [confirmation], next_page_url: null },
  },
  confirm: { ...byProject, request: { note: 'first version' }, answer: confirmation },
  openDraft: {
    ...byPage,
    answer: {
      page: pageRef,
      draft_token: 'dt_1a7e3b',
      base_revision: 1,
      html,
      outline: outline.slice(0, 2),
      can_undo: false,
      can_redo: false,
    },
  },
  discardDraft: byPage,
  draftLog: { ...byPage, answer: { base_revision: 1, operations: [insert] } },
  applyOperation: {
    ...byPage,
    request: { draft_token: 'dt_1a7e3b', operation: insert },
    answer: changed,
  },
  undoDraft: { ...byPage, answer: { ...changed, can_undo: false, can_redo: true } },
  redoDraft: { ...byPage, answer: changed },
  save: {
    ...byPage,
    request: { draft_token: 'dt_5f2c9a', commit_id: '9b2e4c6a-1d3f-4a5b-8c7d-0e9f1a2b3c4d' },
    answer: { page: pageRef, revision: 2, saved_at: at(5) },
  },
  pageRevision: {
    params: { page: ids.page, revision: '2' },
    answer: { page: pageRef, revision: 2, html },
  },
  pageEvents: { ...byPage, answer: { event: 'saved', data: { revision: 2 } } },
  events: {
    answer: {
      id: '42',
      kind: 'project.saved',
      at: at(5),
      data: { project_id: ids.project, revision: 2, kind: 'save', page_id: ids.page },
    },
  },
  ...webhookExamples(ids.project, 'project.saved'),
  getSchema: schemaExample,
};
