// A real S3-compatible server for the object store's tests: the one GALLEY_TEST_S3_URL names
// (`bash scripts/start-test-s3.sh` starts s3rver on loopback and prints its URL, credentials
// included). Each caller gets a fresh bucket of its own, as each PostgreSQL test file gets a fresh
// database. Other packages import it by relative path (test support, not the package's API).
import { randomBytes } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { objectBytesOptionsOf } from '@galley/store';
import type { ObjectBytesOptions } from '@galley/store';

const s3Url = process.env.GALLEY_TEST_S3_URL;
export const s3SkipReason = s3Url
  ? null
  : 'GALLEY_TEST_S3_URL is not set (bash scripts/start-test-s3.sh prints one)';

export interface TestBucket {
  readonly bucket: string;
  /** The settings of a `galley serve` process keeping its bytes there (GALLEY_BYTES_URL, AWS_*). */
  readonly env: Record<string, string>;
  /** The store options the same settings give. */
  readonly options: ObjectBytesOptions;
  /** Every key in the bucket, temporary objects included, sorted. */
  keys(): Promise<string[]>;
  /** Empties and removes the bucket (what s3rver fails to remove stays in its folder). */
  remove(): Promise<void>;
}

/** A new, empty bucket on the test server, its objects under `prefix`. */
export async function freshBucket(prefix = 'galley/bytes'): Promise<TestBucket> {
  if (!s3Url) throw new Error(s3SkipReason!);
  const url = new URL(s3Url);
  const bucket = `galley-t-${randomBytes(6).toString('hex')}`;
  const env = {
    GALLEY_BYTES_URL: `s3://${bucket}/${prefix}`,
    GALLEY_S3_PATH_STYLE: '1',
    AWS_ENDPOINT_URL_S3: url.origin,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: decodeURIComponent(url.username),
    AWS_SECRET_ACCESS_KEY: decodeURIComponent(url.password),
  };
  const options = objectBytesOptionsOf(env.GALLEY_BYTES_URL, env);
  const admin = adminOf(options);
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const keys = () => bucketKeys(options, admin);
  const remove = async () => {
    try {
      for (const key of await keys()) {
        await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      }
      await admin.send(new DeleteBucketCommand({ Bucket: bucket }));
    } catch (error) {
      // s3rver answers InternalError now and then under load: a bucket left behind harms no test.
      console.warn(`test bucket ${bucket} not removed: ${String(error)}`);
    } finally {
      admin.destroy();
    }
  };
  return { bucket, env, options, keys, remove };
}

/** A client of its own for the test's look into a bucket (the store's own is not shared). */
function adminOf(options: ObjectBytesOptions): S3Client {
  return new S3Client({
    ...options.client,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Every key in the bucket of `options` (whatever its prefix), sorted. */
export async function bucketKeys(
  options: ObjectBytesOptions,
  client = adminOf(options),
): Promise<string[]> {
  const found: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: options.bucket, ContinuationToken: token }),
    );
    found.push(...(page.Contents ?? []).flatMap((item) => (item.Key ? [item.Key] : [])));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return found.sort();
}
