import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { S3BlobStore, type S3StoreOptions } from '../platform/blobs-s3.js';

/** s3rver's built-in account. */
export const S3RVER_KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** a store on the bucket; options override the defaults */
  store(options?: Partial<S3StoreOptions>): S3BlobStore;
  close(): Promise<void>;
}

/** A real S3 peer for tests: s3rver on loopback, an ephemeral port and a temporary folder. */
export async function startTestS3(bucket = 'yyp-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const stores: S3BlobStore[] = [];
  return {
    endpoint,
    bucket,
    store: (options = {}) => {
      const store = new S3BlobStore({
        bucket,
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
        accessKeyId: S3RVER_KEY,
        secretAccessKey: S3RVER_KEY,
        ...options,
      });
      stores.push(store);
      return store;
    },
    close: async () => {
      for (const s of stores) s.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
