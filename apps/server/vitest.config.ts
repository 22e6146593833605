import { galleyVitestConfig } from '../../vitest.shared.js';

// GALLEY_TEST_SHAPE=multi-host (the `test` script's second run): the asset interface's suite
// again, on PostgreSQL with the bytes in an S3 bucket (packages/store/test/stores.ts), reported
// apart. The other suites keep few bytes of their own and would double CI's time; the service
// on two hosts as a whole is apps/cli/test/multi-host.test.ts.
const multiHost = process.env.GALLEY_TEST_SHAPE === 'multi-host';
const missing = [
  ['GALLEY_TEST_PG_URL', 'bash scripts/start-test-postgres.sh'],
  ['GALLEY_TEST_S3_URL', 'bash scripts/start-test-s3.sh'],
].find(([name]) => !process.env[name!]);
if (multiHost && missing) {
  console.warn(
    `skipped: the HTTP suite in the multi-host shape: ${missing[0]} is not set (${missing[1]} prints one)`,
  );
}

export default multiHost
  ? galleyVitestConfig('server-multi-host', {
      include: missing ? [] : ['test/v2/**/*.test.ts'],
      // Every stored file is a request or two to the bucket (s3rver, on a loaded machine).
      testTimeout: 120_000,
    })
  : galleyVitestConfig('server');
