#!/usr/bin/env node
import { guardStandardStreams, processIo } from './io.js';
import { run } from './program.js';

guardStandardStreams();
const code = await run(process.argv, processIo);
// `serve` keeps the process alive until a signal; other commands end here.
if (code !== 0) process.exitCode = code;
