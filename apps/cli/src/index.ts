export { createProgram, run } from './program.js';
export { commands } from './commands/index.js';
export type { RegisterCommand } from './commands/index.js';
export { CliError, processIo } from './io.js';
export type { CliIo, CliErrorCode } from './io.js';
export { storeOptionsFor, withStore } from './store-options.js';
