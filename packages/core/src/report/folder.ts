/** A project folder in memory: relative path (with `/`) → bytes. Readers and writers live outside the core. */
export type Folder = ReadonlyMap<string, Uint8Array>;
export type MutableFolder = Map<string, Uint8Array>;
