// What the HTTP benchmarks share: a one-page project's folder ZIP, and a JSON request whose
// status is checked before anything is timed.
import { writeZip } from '@galley/core';

/** The ZIP of a project of one page, `index.html`, holding `html`. */
export function onePageZip(html: string, pageTitle: string): Uint8Array {
  const encoder = new TextEncoder();
  const project = {
    format: 1,
    title: 'Bench',
    media: { id: 'web', version: 1 },
    pages: [{ file: 'index.html', title: pageTitle, public_url: '/' }],
  };
  return writeZip(
    new Map([
      ['project.json', encoder.encode(JSON.stringify(project))],
      ['index.html', encoder.encode(html)],
    ]),
  );
}

/** `fetch`, its JSON answer, and a thrown error unless the status is `expect`. */
export async function json<T>(url: string, init: RequestInit & { expect: number }): Promise<T> {
  const res = await fetch(url, init);
  const body = (await res.json()) as T;
  if (res.status !== init.expect)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}
