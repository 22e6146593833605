import { InvalidArgumentError } from 'commander';

/**
 * A parser of a number option that takes decimal digits only: `Number()` alone would take
 * `0x10`, `1e3`, ` 5` and `''` (as 0), each a number nobody typed. Anything else is a usage
 * mistake saying `range`, which commander prefixes with the option:
 * `option '--days <n>' argument '1e1' is invalid. a whole number from 1 to 90`.
 */
function decimalOption(written: RegExp, fits: (n: number) => boolean, range: string) {
  return (value: string): number => {
    const n = written.test(value) ? Number(value) : Number.NaN;
    if (fits(n)) return n;
    throw new InvalidArgumentError(range);
  };
}

/**
 * `--version`, `--timeout`, `--days`, `--port`: a whole number from `min` to `max` (at most
 * Number.MAX_SAFE_INTEGER, so that the number asked for is exactly the one typed).
 */
export const wholeNumberOption = (min: number, max: number) =>
  decimalOption(/^[0-9]+$/, (n) => n >= min && n <= max, `a whole number from ${min} to ${max}`);

/** `--interval`: seconds, more than 0 and at most `max`, with a fraction if wanted (`0.5`). */
export const secondsOption = (max: number) =>
  decimalOption(
    /^[0-9]+(?:\.[0-9]+)?$/,
    (n) => n > 0 && n <= max,
    `seconds, more than 0 and at most ${max}`,
  );
