import fs from 'node:fs';
import { pino } from 'pino';
import { buildApp, defaultWebDist } from './app.js';
import { systemClock } from './platform/clock.js';
import { loadConfig } from './platform/config.js';
import { startSms } from './platform/sms/index.js';
import { startWxLogin } from './platform/wxlogin/index.js';
import { startWechatPay } from './platform/wechatpay/index.js';
import { migrate, openDatabase } from './platform/db.js';
import { loadJwtSecret } from './platform/tokens.js';
import { loadOidcSigningKey } from './modules/oidc-provider/index.js';
import { errorSerializer } from './platform/http.js';
import { LocalBlobStore, type BlobStore } from './platform/blobs.js';
import { startDimse } from './dicom/dimse.js';
import { dimseHandlers } from './dimse-wiring.js';
import { isEmpty, seedDemo } from './seed/demo.js';
import { backfillNameInitials } from './modules/exams/index.js';
import { seedDemoHistory } from './seed/demo-history.js';
import { seedDemoStudies } from './seed/demo-studies.js';
import path from 'node:path';

const logRedact = [
  'req.headers.authorization',
  'req.headers["charge-authorization"]',
  '*.password',
  '*.oldPassword',
  '*.newPassword',
  '*.accessToken',
];

async function main(): Promise<void> {
  const config = loadConfig();
  // Database errors are logged without the values they repeat (platform/http.ts loggableError).
  const logger = pino({ level: config.logLevel, redact: logRedact, serializers: { err: errorSerializer } });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
    poolSize: config.databasePoolSize,
  });
  await migrate(database);
  const backfilled = await backfillNameInitials(database.db);
  if (backfilled > 0) logger.info({ exams: backfilled }, 'filled the pinyin initials of patient names');
  let seededDemo = false;
  if (config.demo && (await isEmpty(database.db))) {
    const created = await seedDemo(database.db, new Date(), { marketplace: true });
    seededDemo = true;
    logger.info({ accounts: created }, 'seeded the demo domain (set YYP_DEMO=off to skip)');
  }
  let blobs: BlobStore;
  let blobStore: string;
  if (config.s3) {
    // The AWS SDK (about 5 MB of heap) is loaded only when the blobs are in S3.
    const { S3BlobStore } = await import('./platform/blobs-s3.js');
    const s3 = new S3BlobStore(config.s3);
    await s3.checkBucket();
    blobs = s3;
    // Host only: an endpoint URL could carry user:password.
    const where = config.s3.endpoint ? new URL(config.s3.endpoint).host : `AWS ${config.s3.region}`;
    blobStore = `S3 bucket ${config.s3.bucket} at ${where}`;
  } else {
    blobs = new LocalBlobStore(path.join(config.dataDir, 'blobs'));
    blobStore = `files in ${path.join(config.dataDir, 'blobs')}`;
  }
  // WeChat Pay: off, live, or the loopback simulator (whose notifications come back over loopback).
  const wechat = await startWechatPay(config.wechatPay);
  // SMS codes: off, Alibaba Cloud SMS, its loopback simulator (whose inbox the log names) or the log (dev).
  const sms = await startSms(config.sms, { log: logger });
  if (sms.simulator) logger.info({ inbox: sms.simulator.inboxUrl }, 'SMS codes go to the local SMS simulator');
  // WeChat login: off, WeChat itself, or its loopback simulator (whose QR-code page stands in for a phone).
  const wxLogin = await startWxLogin(config.wxLogin);
  if (wxLogin.simulator) {
    logger.info({ url: wxLogin.simulator.url }, 'WeChat login goes to the local WeChat login simulator');
  }
  const apiBase = wechat.simulator || !config.publicBaseUrl ? `http://127.0.0.1:${config.port}` : config.publicBaseUrl;
  const { app, services } = await buildApp({
    db: database.db,
    blobs,
    dicomAet: config.dicomAet,
    dicomPnCaseInsensitive: config.dicomPnCaseInsensitive,
    forwardStableSeconds: config.forwardStableSeconds,
    ingestSyncCommit: config.ingestSyncCommit,
    uploadDir: path.join(config.dataDir, 'uploads'),
    clock: systemClock,
    jwtSecret: loadJwtSecret(config.jwtSecret, config.dataDir),
    tokenTtlSeconds: config.tokenTtlSeconds,
    reportLockSeconds: config.reportLockSeconds,
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimitMultiplier: config.rateLimitMultiplier,
    trustProxy: config.trustProxy,
    publicBaseUrl: config.publicBaseUrl,
    webDist: config.webDist ?? defaultWebDist,
    frameAncestors: config.frameAncestors,
    dicomWebCorsOrigins: config.dicomWebCorsOrigins,
    oidcProvider:
      config.oidcProviderClients.length > 0
        ? { clients: config.oidcProviderClients, key: loadOidcSigningKey(config.dataDir) }
        : undefined,
    databaseUrl: config.databaseUrl,
    espeakPath: config.espeakPath,
    turn: config.turn,
    sms: sms.provider,
    smsStatus: sms.status,
    wxLogin: wxLogin.provider,
    wechatPay: wechat.provider
      ? {
          channel: {
            provider: wechat.provider,
            apiBaseUrl: () => `${apiBase}/yyp/api/v1`,
            ...(wechat.simulator ? { scanUrl: (codeUrl: string) => wechat.simulator!.scanUrl(codeUrl) } : {}),
          },
          close: () => wechat.close(),
        }
      : null,
    logger,
  });

  let dicom: { close(): void } | null = null;
  let dicomTls: { close(): void } | null = null;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    dicom?.close();
    dicomTls?.close();
    app
      .close()
      .then(() => sms.close())
      .then(() => wxLogin.close())
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const handlers = dimseHandlers(services, {
    aeTitle: config.dicomAet,
    onRefused: (calling, called, remote, reason) => {
      logger.warn({ calling, called, remote, reason }, 'DICOM association refused');
      void services.archive.auditRefusedAssociation(calling, called, remote, reason).catch(() => undefined);
    },
    onError: (err, what) => logger.error({ err }, `DICOM ${what} failed`),
  });
  dicom = await startDimse(config.dicomPort, handlers, config.dicomHost);
  logger.info(
    { port: config.dicomPort, host: config.dicomHost, aet: config.dicomAet },
    'DICOM C-ECHO, C-STORE, Modality Worklist, MPPS and Query/Retrieve listening',
  );
  if (config.dicomTls) {
    const { port, certFile, keyFile, caFile, requireClientCert } = config.dicomTls;
    const read = (file: string) => fs.readFileSync(file);
    dicomTls = await startDimse(port, handlers, config.dicomHost, {
      cert: read(certFile),
      key: read(keyFile),
      ...(caFile ? { ca: read(caFile) } : {}),
      requireClientCert,
    });
    logger.info({ port, requireClientCert }, 'DICOM over TLS listening');
  }
  if (seededDemo && config.demoStudies) {
    // Generated demo images arrive in the background: the platform is usable meanwhile.
    void seedDemoStudies(database.db, services.archive, (msg) => logger.info(msg))
      .then((n) => logger.info({ instances: n }, 'demo studies stored'))
      .catch((err: unknown) => logger.error({ err }, 'demo studies failed'));
    // Six weeks of reported exams (no images), so the statistics have something to count.
    void seedDemoHistory(database.db, new Date())
      .then((n) => logger.info({ exams: n }, 'demo report history stored'))
      .catch((err: unknown) => logger.error({ err }, 'demo report history failed'));
  }
  const store = database.kind === 'pglite' ? `PGlite in ${path.join(config.dataDir, 'pgdata')}` : 'PostgreSQL';
  logger.info({ store, blobs: blobStore, dataDir: config.dataDir }, 'yyp started');
  process.stdout.write(`\n  yyp is running at http://localhost:${config.port}  (${store})\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`yyp failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
