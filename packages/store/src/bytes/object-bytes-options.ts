import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { StoreError } from '../errors.js';

/** Bytes in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Ceph) instead of a folder. */
export interface ObjectBytesOptions {
  bucket: string;
  /** Every key starts with this: '' or a path ending in '/'. */
  prefix: string;
  /**
   * The S3 client's settings. What is left out (region, credentials) comes from the AWS SDK's
   * default chain: the environment, the shared config files, an instance or task role.
   */
  client: S3ClientConfig;
}

/** What `objectBytesOptionsOf` reads: the environment, or the same names given another way. */
export type ObjectBytesEnv = Readonly<Record<string, string | undefined>>;

/** S3's bucket names: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Why `url` cannot name where bytes go, or undefined when it can: `s3://bucket` or
 * `s3://bucket/prefix`.
 */
export function bytesUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL (s3://bucket/prefix)';
  }
  if (parsed.protocol !== 's3:') return 'is not an s3:// URL (s3://bucket/prefix)';
  if (!BUCKET.test(parsed.hostname)) return 'does not name a bucket (3 to 63 a-z, 0-9, . and -)';
  if (parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.port !== '')
    return 'may not carry a query, a fragment, a port or credentials (they come from AWS_*)';
  return undefined;
}

/**
 * The object store of `GALLEY_BYTES_URL=s3://bucket/prefix`, with the endpoint, region and
 * credentials from the usual AWS variables and path-style addressing from GALLEY_S3_PATH_STYLE.
 */
export function objectBytesOptionsOf(url: string, env: ObjectBytesEnv): ObjectBytesOptions {
  const problem = bytesUrlProblem(url);
  if (problem !== undefined) throw new StoreError('invalid_options', `${url} ${problem}`);
  const parsed = new URL(url);
  const path = decodeURIComponent(parsed.pathname).replace(/^\/+/, '');
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env;
  // Servers other than AWS take any region; the SDK refuses to sign without one.
  const region = env.AWS_REGION || (endpoint ? 'us-east-1' : undefined);
  return {
    bucket: parsed.hostname,
    prefix: path === '' || path.endsWith('/') ? path : `${path}/`,
    client: {
      ...(endpoint ? { endpoint } : {}),
      ...(region ? { region } : {}),
      ...(accessKeyId && secretAccessKey
        ? {
            credentials: {
              accessKeyId,
              secretAccessKey,
              ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
            },
          }
        : {}),
      forcePathStyle: env.GALLEY_S3_PATH_STYLE === '1' || env.GALLEY_S3_PATH_STYLE === 'true',
    },
  };
}
