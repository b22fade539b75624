#!/usr/bin/env node
import path from 'node:path';
import { runCli } from './cli-commands.js';
import { failureMessage } from './cli-failure.js';
import { localKeys } from './modules/archive/index.js';
import { LocalBlobStore } from './platform/blobs.js';
import { S3BlobStore } from './platform/blobs-s3.js';
import { loadConfig } from './platform/config.js';
import { migrate, openDatabase } from './platform/db.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pgdata') });
  try {
    await migrate(db);
    let archive;
    if (config.s3) {
      const s3 = new S3BlobStore(config.s3);
      archive = { blobs: s3, keys: (prefix: string) => s3.keys(prefix) };
    } else {
      const root = path.join(config.dataDir, 'blobs');
      archive = { blobs: new LocalBlobStore(root), keys: (prefix: string) => localKeys(root, prefix) };
    }
    await runCli(db, process.argv.slice(2), console.log, archive);
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(failureMessage(err));
  process.exit(1);
});
