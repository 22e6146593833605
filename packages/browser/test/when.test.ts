import { describe, expect, it } from 'vitest';
import { relativeTime } from '../src/screen/when.js';

const now = new Date('2030-01-10T12:00:00Z');
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('relativeTime: how long ago (or until), in the largest unit that fits', () => {
  it.each([
    [0, 'just now'],
    [-44, 'just now'],
    [-5 * 60, '5 minutes ago'],
    [-100 * 60, '2 hours ago'],
    [-26 * 3600, 'yesterday'],
    [-3 * 86_400, '3 days ago'],
    [-14 * 86_400, '2 weeks ago'],
    [90 * 86_400, 'in 3 months'],
    [30 * 86_400, 'next month'],
    [-400 * 86_400, 'last year'],
  ])('%i s → %s', (seconds, said) => {
    expect(relativeTime(at(seconds), now)).toBe(said);
  });
});
