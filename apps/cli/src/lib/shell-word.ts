/** `path` as one shell word: as it is when nothing in it is special to a shell, else quoted. */
export function shellWord(path: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
