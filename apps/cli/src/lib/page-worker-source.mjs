// The page worker when the CLI runs from its TypeScript source (tests): tsx compiles
// page-worker.ts. A built CLI starts page-worker.js beside the module that starts it.
import { register } from 'tsx/esm/api';

register();
await import('./page-worker.ts');
