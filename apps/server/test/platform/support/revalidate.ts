// A copy the client has, revalidated the two ways clients do it. curl sends `If-None-Match` as
// given; here it also sends `Cache-Control: no-cache`, as a browser's reload does. Node's global
// fetch adds `Cache-Control: no-cache` and `Pragma: no-cache` to every conditional request by
// itself (the Fetch standard's no-store mode), so it is called as is. Express's `req.fresh` calls
// either request stale; the origin still compares the ETag.
import { request } from 'node:http';

/** The status of a GET sent over a plain HTTP/1.1 connection with exactly these headers. */
function plainGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The statuses of `GET url` with `If-None-Match: etag`, sent with no-cache and by fetch. */
export async function revalidated(
  url: string,
  etag: string,
  headers: Record<string, string> = {},
): Promise<{ noCache: number; fetch: number }> {
  const conditional = { ...headers, 'if-none-match': etag };
  const noCache = await plainGet(url, { ...conditional, 'cache-control': 'no-cache' });
  const fetched = await fetch(url, { headers: conditional });
  await fetched.arrayBuffer();
  return { noCache, fetch: fetched.status };
}
