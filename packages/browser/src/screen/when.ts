// Times as a person reads them: in their own time zone, relative to now ("5 minutes ago",
// "yesterday", "in 3 months"), with the full date for a title. The server does not know the
// person's zone, so it renders `<time datetime>` with ISO text and this script formats it.

const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** The largest unit that fits, in seconds; below a minute a time is "just now". */
const units: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "in 3 months", "just now". */
export function relativeTime(at: Date, now: Date): string {
  const seconds = (at.getTime() - now.getTime()) / 1000;
  const unit = units.find(([, size]) => Math.abs(seconds) >= size);
  if (!unit) return 'just now';
  return words.format(Math.round(seconds / unit[1]), unit[0]);
}

/** The full date and time in the person's zone and conventions, with the zone's name. */
export function fullTime(at: Date): string {
  return new Intl.DateTimeFormat(undefined, {
    dateStyle: 'full',
    timeStyle: 'long',
  }).format(at);
}

/** The time of day in the person's zone ("14:02", or "2:02 PM" where that is the custom). */
export function clockTime(at: Date): string {
  return new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(at);
}

/**
 * Formats a `<time datetime>` element: relative text (after the time of day with `data-clock`),
 * the full date as its title. An element whose `datetime` is not a date is left as it is.
 */
export function formatTimeElement(element: HTMLTimeElement, now = new Date()): void {
  const at = new Date(element.dateTime);
  if (Number.isNaN(at.getTime())) return;
  const relative = relativeTime(at, now);
  element.textContent =
    element.dataset.clock === undefined ? relative : `${clockTime(at)} · ${relative}`;
  element.title = fullTime(at);
}

/** Formats every `<time datetime>` under `root` (server-rendered ones included). */
export function formatTimes(root: ParentNode = document, now = new Date()): void {
  for (const element of root.querySelectorAll<HTMLTimeElement>('time[datetime]'))
    formatTimeElement(element, now);
}

/** Keeps the relative times true while the page stays open (once a minute). */
export function keepTimesCurrent(): void {
  formatTimes();
  setInterval(() => formatTimes(), 60_000);
}
