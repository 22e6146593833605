const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const steps: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** "5 minutes ago", "yesterday": how long ago, in the person's language. */
export function ago(when: Date, now: Date = new Date()): string {
  let amount = (when.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of steps) {
    if (Math.abs(amount) < size) return relative.format(Math.round(amount), unit);
    amount /= size;
  }
  return when.toLocaleString();
}
