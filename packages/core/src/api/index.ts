export * from './common.js';
export * as v1 from './v1.js';
export * as v2 from './v2.js';
export * as events from './events.js';
