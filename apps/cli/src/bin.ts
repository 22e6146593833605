#!/usr/bin/env node
// Every module is imported at once, in one round of loading: `galley --version` loads only the
// version's, not the program (commander, the command list); anything else loads the program.
// No top-level await: the packed CLI is CommonJS (scripts/pack.ts), which has none.
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const versionOnly = args.length === 1 && (args[0] === '--version' || args[0] === '-V');
  const [{ guardStandardStreams, processIo }, version, program] = await Promise.all([
    import('./io.js'),
    versionOnly ? import('./version.js') : undefined,
    versionOnly ? undefined : import('./program.js'),
  ]);

  guardStandardStreams();
  // The line `run` prints for `--version`, without building the program to print it.
  if (version) processIo.out(version.galleyVersion());
  else if (program) {
    const code = await program.run(process.argv, processIo);
    // `serve` keeps the process alive until a signal; other commands end here.
    if (code !== 0) process.exitCode = code;
  }
}

void main();
