#!/usr/bin/env node
import { guardStandardStreams, processIo } from './io.js';

guardStandardStreams();
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before the program (commander, the command list) is loaded: the same line
  // `run` prints for it, in a fraction of the start-up.
  const { galleyVersion } = await import('./version.js');
  processIo.out(galleyVersion());
} else {
  const { run } = await import('./program.js');
  const code = await run(process.argv, processIo);
  // `serve` keeps the process alive until a signal; other commands end here.
  if (code !== 0) process.exitCode = code;
}
