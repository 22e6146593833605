// Time is read through one small interface so that expiry, sweeping and locks can be tested by
// advancing a clock instead of waiting.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move; for tests. */
export class TestClock implements Clock {
  #ms: number;

  constructor(start: Date | string = '2030-01-01T00:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  advance(ms: number): void {
    this.#ms += ms;
  }

  advanceSeconds(seconds: number): void {
    this.advance(seconds * 1000);
  }

  set(time: Date | string): void {
    this.#ms = new Date(time).getTime();
  }
}
