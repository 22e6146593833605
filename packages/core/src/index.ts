export * from './report/violation.js';
export * from './report/folder.js';
export * from './media/catalog.js';
