import { galleyVitestConfig } from '../../vitest.shared.js';

export default galleyVitestConfig('mcp');
