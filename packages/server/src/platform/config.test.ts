import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig (DESIGN.md Configuration)', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dicomPort).toBe(11112);
    expect(c.dicomAet).toBe('YYP');
    expect(c.demo).toBe(true);
  });
  it('seeds the demo only on the embedded store unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', YYP_DEMO: 'on' }).demo).toBe(true);
    expect(loadConfig({ YYP_DEMO: 'off' }).demo).toBe(false);
  });
  it('refuses a malformed port', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
  it('sizes the PostgreSQL pool by the cores unless told, within 2 to 200', () => {
    expect(loadConfig({}).databasePoolSize).toBe(Math.max(4, 2 * os.availableParallelism()));
    expect(loadConfig({ DATABASE_POOL_SIZE: '12' }).databasePoolSize).toBe(12);
    expect(loadConfig({ DATABASE_POOL_SIZE: '2' }).databasePoolSize).toBe(2);
    for (const bad of ['1', '201', 'four', '-3', '2.5']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
    }
  });
});

describe('S3_* settings', () => {
  it('keeps blobs in DATA_DIR unless S3_BUCKET is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' }).s3).toBeUndefined();
  });
  it('reads the bucket, region default and path style', () => {
    expect(loadConfig({ S3_BUCKET: 'yyp' }).s3).toEqual({
      bucket: 'yyp',
      region: 'us-east-1',
      endpoint: undefined,
      publicEndpoint: undefined,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
    const own = loadConfig({
      S3_BUCKET: 'yyp',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_PUBLIC_ENDPOINT: 'https://files.example.org',
      S3_REGION: 'cn-north-1',
      S3_ACCESS_KEY_ID: 'AKID',
      S3_SECRET_ACCESS_KEY: 'SECRET',
    }).s3;
    expect(own).toMatchObject({
      endpoint: 'http://minio:9000',
      publicEndpoint: 'https://files.example.org',
      region: 'cn-north-1',
      accessKeyId: 'AKID',
      secretAccessKey: 'SECRET',
      forcePathStyle: true,
    });
    expect(
      loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'http://m:9000', S3_FORCE_PATH_STYLE: 'off' }).s3?.forcePathStyle,
    ).toBe(false);
    expect(loadConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'on' }).s3?.forcePathStyle).toBe(true);
  });
  it('refuses half a key pair and bad endpoints without echoing the secret', () => {
    const run = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    const half = run({ S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'TOPSECRET' });
    expect(half).toMatch(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(half).not.toContain('TOPSECRET');
    const bad = run({ S3_BUCKET: 'b', S3_ENDPOINT: 'ftp://user:TOPSECRET@host' });
    expect(bad).toMatch(/S3_ENDPOINT/);
    expect(bad).not.toContain('TOPSECRET');
    expect(run({ S3_BUCKET: 'b', S3_ENDPOINT: 'not a url' })).toMatch(/S3_ENDPOINT/);
  });
});
