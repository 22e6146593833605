import { isTerminal } from './terminal.js';

/** Styles for human output; every one is the identity when colours are off. */
export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const colours: Paint = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
  green: sgr(32, 39),
  cyan: sgr(36, 39),
};
const same = (text: string) => text;
export const plain: Paint = {
  bold: same,
  dim: same,
  red: same,
  yellow: same,
  green: same,
  cyan: same,
};

/** Colours only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function paintFor(
  stream: { readonly isTTY?: boolean },
  env: Record<string, string | undefined>,
): Paint {
  return stream.isTTY === true && !env.NO_COLOR ? colours : plain;
}

/** `paintFor` standard output, asked of its descriptor: process.stdout is not created. */
export function paintForStdout(env: Record<string, string | undefined>): Paint {
  return paintFor({ isTTY: isTerminal(1) }, env);
}
