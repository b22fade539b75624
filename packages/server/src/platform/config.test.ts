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
  it('scales the per-address rate limits by RATE_LIMIT_MULTIPLIER (default 1; 0 turns them off)', () => {
    expect(loadConfig({}).rateLimitMultiplier).toBe(1);
    expect(loadConfig({ RATE_LIMIT_MULTIPLIER: '5' }).rateLimitMultiplier).toBe(5);
    expect(loadConfig({ RATE_LIMIT_MULTIPLIER: '0' }).rateLimitMultiplier).toBe(0);
    for (const bad of ['-1', '1.5', 'lots']) {
      expect(() => loadConfig({ RATE_LIMIT_MULTIPLIER: bad })).toThrow(/RATE_LIMIT_MULTIPLIER/);
    }
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

describe('PUBLIC_BASE_URL and TRUST_PROXY', () => {
  it('trusts no proxy and has no public base URL unless told', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({}).publicBaseUrl).toBeUndefined();
    for (const off of ['', '0', 'off', 'false', 'NO']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
  });
  it("reads TRUST_PROXY as Fastify's trustProxy: true or addresses and CIDRs, not a hop count", () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY hop counts/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/255.0.0.0' }).trustProxy).toEqual(['10.0.0.0/255.0.0.0']);
    for (const bad of ['proxy.example.org', '10.0.0.1/33', '::1/129', '10.0.0.1/8/1', ',', '1.2.3']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });
  it('takes an http(s) PUBLIC_BASE_URL without its trailing slash', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://pacs.example.org/' }).publicBaseUrl).toBe('https://pacs.example.org');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://example.org/pacs' }).publicBaseUrl).toBe('https://example.org/pacs');
    for (const bad of ['pacs.example.org', 'ftp://x', 'https://u:p@x.org', 'https://x.org/?a=1', 'https://x.org/#f']) {
      expect(() => loadConfig({ PUBLIC_BASE_URL: bad })).toThrow(/PUBLIC_BASE_URL/);
    }
  });
});

describe('FRAME_ANCESTORS', () => {
  it('lets no one frame the pages unless origins are listed', () => {
    expect(loadConfig({}).frameAncestors).toEqual([]);
    expect(loadConfig({ FRAME_ANCESTORS: ' ' }).frameAncestors).toEqual([]);
  });
  it('reads origins separated by spaces or commas, wildcard subdomains and ports included', () => {
    expect(
      loadConfig({
        FRAME_ANCESTORS: 'https://HIS.example.org/ http://10.0.0.5:8080,https://*.hospital.cn  https://his.example.org',
      }).frameAncestors,
    ).toEqual(['https://his.example.org', 'http://10.0.0.5:8080', 'https://*.hospital.cn']);
  });
  it('refuses anything that is not an origin, so nothing else reaches the policy', () => {
    for (const bad of [
      "'self'",
      '*',
      'his.example.org',
      'https://his.example.org/path',
      'https://a.org;script-src *',
      'ftp://x.org',
      "https://x.org'",
    ]) {
      expect(() => loadConfig({ FRAME_ANCESTORS: bad })).toThrow(/FRAME_ANCESTORS/);
    }
  });
});

describe('DICOM TLS settings', () => {
  it('are off without DICOM_TLS_PORT, and need a certificate and a key with it', () => {
    expect(loadConfig({}).dicomTls).toBeUndefined();
    expect(() => loadConfig({ DICOM_TLS_PORT: '2762' })).toThrow(/DICOM_TLS_CERT/);
    expect(() => loadConfig({ DICOM_TLS_PORT: '2762', DICOM_TLS_CERT: 'c.pem' })).toThrow(/DICOM_TLS_KEY/);
  });
  it('need the client CAs when client certificates are required', () => {
    const base = { DICOM_TLS_PORT: '2762', DICOM_TLS_CERT: '/etc/yyp/c.pem', DICOM_TLS_KEY: '/etc/yyp/k.pem' };
    expect(() => loadConfig({ ...base, DICOM_TLS_REQUIRE_CLIENT_CERT: 'true' })).toThrow(/DICOM_TLS_CA/);
    expect(
      loadConfig({ ...base, DICOM_TLS_REQUIRE_CLIENT_CERT: 'true', DICOM_TLS_CA: '/etc/yyp/ca.pem' }).dicomTls,
    ).toEqual({
      port: 2762,
      certFile: '/etc/yyp/c.pem',
      keyFile: '/etc/yyp/k.pem',
      caFile: '/etc/yyp/ca.pem',
      requireClientCert: true,
    });
  });
});

describe('DICOMWEB_CORS_ORIGINS', () => {
  it('lists exact origins, none by default, and refuses anything else', () => {
    expect(loadConfig({}).dicomWebCorsOrigins).toEqual([]);
    expect(
      loadConfig({ DICOMWEB_CORS_ORIGINS: 'https://OHIF.hospital.cn/, http://10.0.0.5:3000' }).dicomWebCorsOrigins,
    ).toEqual(['https://ohif.hospital.cn', 'http://10.0.0.5:3000']);
    for (const bad of ['*', 'https://*.hospital.cn', 'ohif.hospital.cn', 'https://x.org/path']) {
      expect(() => loadConfig({ DICOMWEB_CORS_ORIGINS: bad })).toThrow(/DICOMWEB_CORS_ORIGINS/);
    }
  });
});
