// Stored and answered times share one fixed-width text form (UTC, "+00:00" offset, milliseconds),
// so they sort as text identically on SQLite and PostgreSQL and need no column-type mapping.
export type IsoTime = string;

export function isoTime(date: Date): IsoTime {
  return date.toISOString().replace(/Z$/, '+00:00');
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

export function parseIsoTime(value: IsoTime): Date {
  return new Date(value);
}
