// Writes LINES request-sized log lines through the server's own logger to standard output, then
// prints `done` on standard error: run with standard output on a device that takes nothing.
import { createLogger } from '@galley/server';

const LINES = 200;
const logger = createLogger('info');
for (let n = 0; n < LINES; n++) logger.info({ n, url: '/api/v1/projects' }, 'request completed');
process.stderr.write('done\n');
