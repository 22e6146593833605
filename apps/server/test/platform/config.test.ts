// The settings (docs/operations.md): defaults, and values refused before anything starts.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@galley/server';

describe('settings', () => {
  it('takes the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      baseUrl: 'http://localhost:8080',
      databaseUrl: null,
      bytesUrl: null,
      rateLimitPerMinute: 600,
      trustProxy: false,
      logLevel: 'info',
      previewSecret: null,
      eventStreamsPerAccount: 16,
    });
  });

  it('reads every form of GALLEY_TRUST_PROXY that Express takes', () => {
    for (const [value, read] of [
      ['true', true],
      ['false', false],
      ['2', 2],
      ['loopback', 'loopback'],
      ['10.0.0.0/8, 127.0.0.1', '10.0.0.0/8, 127.0.0.1'],
    ] as const) {
      expect([value, loadConfig({ GALLEY_TRUST_PROXY: value }).trustProxy]).toEqual([value, read]);
    }
  });

  it('refuses an unusable value with a message naming the setting', () => {
    for (const [name, value] of [
      ['GALLEY_TRUST_PROXY', 'banana'],
      ['GALLEY_TRUST_PROXY', '10.0.0.0/99'],
      ['GALLEY_PORT', 'abc'],
      ['GALLEY_PORT', '70000'],
      ['GALLEY_RATE_LIMIT', '0'],
      ['GALLEY_SESSION_TTL_SECONDS', '59'],
      ['GALLEY_DATABASE_URL', 'mysql://x@127.0.0.1/db'],
      ['GALLEY_BYTES_URL', 'https://bucket.example.org/galley'],
      ['GALLEY_BYTES_URL', 's3://Not_A_Bucket/galley'],
      ['GALLEY_S3_PATH_STYLE', 'yes'],
      ['GALLEY_PREVIEW_SECRET', 'short'],
      ['GALLEY_EVENT_STREAMS_PER_ACCOUNT', '0'],
      ['GALLEY_MCP_RENEW_SECONDS', '0'],
      ['GALLEY_MCP_RENEW_SECONDS', '60'],
      ['GALLEY_LOG_LEVEL', 'loud'],
    ] as const) {
      let refused: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        refused = error;
      }
      expect([name, value, refused]).toEqual([name, value, expect.any(ConfigError)]);
      expect((refused as Error).message).toMatch(new RegExp(`^invalid settings: ${name}: `));
    }
  });
});
