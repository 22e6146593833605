// `galley` as packed: scripts/pack.ts builds this file, as CommonJS, into dist/galley.js. The CLI
// beside it is CommonJS too: cli.js and the chunks it requires, each command's loaded when that
// command runs. They are loaded here rather than by Node's require, to hand V8 the code caches
// made when the package was packed (code-cache/<V8 version>-<arch>/): compiling the code a
// command runs is a large part of a short command's time, and Node 20 keeps no cache of its own.
// A cache for another V8, or one V8 rejects, is not used: the chunk is compiled as Node would.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';

interface Chunk {
  exports: unknown;
}
type ChunkFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: Chunk,
  filename: string,
  dirname: string,
) => void;

const caches = join(__dirname, 'code-cache', `${process.versions.v8}-${process.arch}`);
/** The chunks loaded, by file name: each runs once, as a module does. */
const chunks = new Map<string, Chunk>();
/** Each chunk's script and its cache file, for `writeCodeCaches`. */
const compiled: { script: Script; cacheFile: string }[] = [];

function cacheOf(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined; // none was made for this chunk: it is compiled without
  }
}

/** Loads `name`, a chunk in this folder, and answers its exports. */
function loadChunk(name: string): unknown {
  const loaded = chunks.get(name);
  if (loaded) return loaded.exports;
  const filename = join(__dirname, name);
  const chunk: Chunk = { exports: {} };
  chunks.set(name, chunk);
  const cacheFile = join(caches, `${name}.cache`);
  const source = readFileSync(filename, 'utf8');
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename, cachedData: cacheOf(cacheFile) });
  compiled.push({ script, cacheFile });
  const nodeRequire = createRequire(filename);
  const chunkRequire = Object.assign(
    (id: string): unknown =>
      /^\.\/[^/]+\.js$/.test(id) ? loadChunk(id.slice(2)) : nodeRequire(id),
    nodeRequire,
  );
  const run = script.runInThisContext() as ChunkFunction;
  run(chunk.exports, chunkRequire, chunk, filename, __dirname);
  return chunk.exports;
}

/** Runs the CLI with the process's arguments. */
export function run(): void {
  loadChunk('cli.js');
}

/**
 * Writes the code cache of every chunk this process loaded, with every function it compiled so
 * far: scripts/pack.ts calls it as each of its sample commands ends.
 */
export function writeCodeCaches(): void {
  mkdirSync(caches, { recursive: true });
  for (const { script, cacheFile } of compiled) writeFileSync(cacheFile, script.createCachedData());
}

if (require.main === module) run();
