#!/usr/bin/env node
import path from 'node:path';
import { runCli } from './cli-commands.js';
import { loadConfig } from './platform/config.js';
import { migrate, openDatabase } from './platform/db.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pgdata') });
  try {
    await migrate(db);
    await runCli(db, process.argv.slice(2));
  } finally {
    await db.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
