// The pool's worker when the server runs from its TypeScript source (tests, benchmarks): tsx
// compiles worker.ts. A built server starts dist/pool/worker.js instead.
import { register } from 'tsx/esm/api';

register();
export default (await import('./worker.ts')).default;
