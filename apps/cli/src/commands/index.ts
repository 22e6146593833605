// Every `galley` command, one file each. A new command adds its file and one line below.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { registerAccounts } from './accounts.js';
import { registerCheck } from './check.js';
import { registerConvert } from './convert.js';
import { registerPull } from './pull.js';
import { registerPush } from './push.js';
import { registerServe } from './serve.js';
import { registerTokens } from './tokens.js';
import { registerWatch } from './watch.js';

export type RegisterCommand = (program: Command, io: CliIo) => void;

export const commands: RegisterCommand[] = [
  registerServe,
  registerAccounts,
  registerTokens,
  registerCheck,
  registerConvert,
  registerPull,
  registerPush,
  registerWatch,
];
