/** One image candidate URL of a `srcset` value, with its span in that value. */
export interface SrcsetUrl {
  readonly start: number;
  readonly end: number;
  readonly url: string;
}

const space = /[\t\n\f\r ]/;

/** The candidate URLs of a `srcset`, split as the HTML standard does (descriptors skipped). */
export function scanSrcset(value: string): SrcsetUrl[] {
  const urls: SrcsetUrl[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && (space.test(value[i] ?? '') || value[i] === ',')) i++;
    if (i >= value.length) break;
    const start = i;
    while (i < value.length && !space.test(value[i] ?? '')) i++;
    let end = i;
    const endsWithComma = value[end - 1] === ',';
    while (end > start && value[end - 1] === ',') end--;
    if (end > start) urls.push({ start, end, url: value.slice(start, end) });
    if (endsWithComma) continue;
    let depth = 0;
    while (i < value.length) {
      const c = value[i];
      if (c === '(') depth++;
      else if (c === ')') depth = Math.max(0, depth - 1);
      else if (c === ',' && depth === 0) break;
      i++;
    }
  }
  return urls;
}
