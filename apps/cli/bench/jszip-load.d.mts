/** Loads a ZIP with JSZip and reads every file; answers how many files and bytes it read. */
export function readAll(bytes: Uint8Array): Promise<{ files: number; bytes: number }>;
