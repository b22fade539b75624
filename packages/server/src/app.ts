import { DEFAULT_REPORT_LOCK_SECONDS, LIVE_PATH } from '@yyp/contracts';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifySwagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AccountsService } from './modules/accounts/index.js';
import { DomainService, cachedDomainConfig } from './modules/domain/index.js';
import { AdminService } from './modules/admin/index.js';
import { ArchiveService } from './modules/archive/index.js';
import { DimseQueryRetrieve, dicomWebRoutes, DicomWebService, installDicomWebCors } from './modules/dicomweb/index.js';
import { ReportExtrasService, ReportsService } from './modules/reports/index.js';
import { ordersServices } from './modules/orders/index.js';
import { consultationServices } from './modules/consultations/index.js';
import { ReportPrintService } from './modules/report-print/index.js';
import { ReportSafetyService } from './modules/report-safety/index.js';
import { deskSources, reportSources, startRollupRefresh, StatisticsService } from './modules/statistics/index.js';
import { KnowledgeBaseService, ReportLibraryService } from './modules/report-library/index.js';
import { ViewingService } from './modules/viewing/index.js';
import {
  ReportPublishService,
  ReportSharingService,
  SharedReportBuilder,
  WebIntegrationService,
} from './modules/report-sharing/index.js';
import {
  AutoAssigner,
  ExamListService,
  ExamManageService,
  ExamsService,
  isConsultationCopy,
  setConsultationCopyBinding,
  setConsultationCopyGate,
} from './modules/exams/index.js';
import { QuickSearchService } from './modules/quick-search/index.js';
import { ExportsService } from './modules/exports/index.js';
import { AiService } from './modules/ai/index.js';
import { setOperationAuditGate } from './platform/audit.js';
import { JobQueue } from './platform/jobs.js';
import { ForwardingService } from './modules/forwarding/index.js';
import { NotificationsService } from './modules/notifications/index.js';
import { Signer } from './platform/signed.js';
import { Sealer } from './platform/sealed.js';
import { UploadsService } from './modules/uploads/index.js';
import { GroupsService } from './modules/groups/index.js';
import { OrganizationsService } from './modules/organizations/index.js';
import { RolesService } from './modules/roles/index.js';
import { RulesService } from './modules/rules/index.js';
import { ProceduresService, RegistryDicom, RegistryMatch, RegistryService } from './modules/registry/index.js';
import { callingLive, callingServices, checkInOnArrival, leaveQueueOnArrivalUndone } from './modules/calling/index.js';
import { installAuth } from './platform/auth.js';
import { BlobLinks } from './platform/blob-links.js';
import { LocalBlobStore } from './platform/blobs.js';
import { PoliciesService } from './modules/policies/index.js';
import { paymentServices } from './modules/payments/index.js';
import { AttachmentsService } from './modules/attachments/index.js';
import { SignatureService } from './modules/signature/index.js';
import type { AppOptions } from './app-options.js';
import { API_PREFIX, apiRoutes, collectApiRoutes, type RouteInfo } from './app-routes.js';
import { startDeletedExamPurge } from './app-timers.js';
import { apiNotFound, installErrorHandling, installInputGuard } from './platform/http.js';
import { TokenService } from './platform/tokens.js';
import { blobOriginsOf, installNosniff, installWebPages } from './platform/page-headers.js';
import { installCompression } from './platform/compression.js';
import { createLiveBus } from './platform/live.js';
import { LiveAccess } from './platform/live-access.js';
import { installLiveSocket } from './platform/live-socket.js';
import { speechRoutes, SpeechService } from './modules/speech/index.js';
import { consultationBindsCopy, consultationCopyAccess, consultationRoomFacts } from './modules/consultations/index.js';
import { videoLive, videoService } from './modules/video/index.js';
import { EntriesService } from './modules/entries/index.js';
import { SsoService } from './modules/sso/index.js';
import { OIDC_PROVIDER_PREFIX, oidcProviderRoutes, OidcProviderService } from './modules/oidc-provider/index.js';
import { WxLoginService } from './modules/wxlogin/index.js';
import { OpenIdClient } from './platform/oidc.js';
import { GlobalConfigsService } from './modules/global-configs/index.js';
import { LearningsService } from './modules/learnings/index.js';
import { OrgStructureService } from './modules/org-structure/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const defaultWebDist = path.resolve(here, '../../web/dist');
export const version: string = (
  JSON.parse(fs.readFileSync(path.resolve(here, '../package.json'), 'utf8')) as { version: string }
).version;

export type { AppOptions } from './app-options.js';

export type { Services } from './app-services.js';
import type { Services } from './app-services.js';

export { API_PREFIX, type RouteInfo };

export async function buildApp(
  options: AppOptions,
): Promise<{ app: FastifyInstance; services: Services; routes: RouteInfo[] }> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: options.bodyLimitBytes,
    trustProxy: options.trustProxy ?? false,
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
  });
  const routes = collectApiRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installInputGuard(app);
  // Read at every operation audit row: kept a second, dropped when this process changes it.
  const domainConfig = cachedDomainConfig(1000);
  setOperationAuditGate(async (db) => (await domainConfig(db)).auditLogOn);

  const tokens = new TokenService(options.jwtSecret, options.tokenTtlSeconds);
  const signer = new Signer(options.jwtSecret);
  // The local store answers presigned URLs through yyp's own blob routes.
  const blobLinks = new BlobLinks(signer, options.clock);
  if (options.blobs instanceof LocalBlobStore) options.blobs.enableDirectTransfer(blobLinks);
  const policies = new PoliciesService(options.blobs, options.clock, options.db);
  const notifications = new NotificationsService(options.db, options.clock, app.log);
  const examList = new ExamListService(options.db, options.blobs, options.clock);
  const examManage = new ExamManageService(options.db, options.clock, examList);
  const autoAssign = new AutoAssigner(options.db, options.clock, examManage, app.log);
  const jobs = new JobQueue(options.db, options.clock, app.log);
  const registryDicom = new RegistryDicom(options.db, options.clock, app.log);
  const forwarding = new ForwardingService({ ...options, jobs, log: app.log }, options.forwardStableSeconds);
  const archive = new ArchiveService(
    options.db,
    options.blobs,
    options.clock,
    options.dicomAet,
    (examId, bucketId, source) => {
      notifications.onNewExam(examId, bucketId, source);
      autoAssign.onNewExam(examId, bucketId, source);
      registryDicom.onNewExam(examId, bucketId);
      forwarding.onNewExam(examId, bucketId, source);
    },
    options.ingestSyncCommit ?? false,
  );
  const dicomWeb = new DicomWebService(options.db, options.blobs, archive);
  const reportLibrary = new ReportLibraryService(options.db, options.blobs, options.clock);
  const viewing = new ViewingService(options.db, options.blobs, options.clock, signer, dicomWeb, examList);
  const sharedReports = new SharedReportBuilder(options.db, signer, viewing);
  const reportSharing = new ReportSharingService(options.db, options.clock, sharedReports);
  const reports = new ReportsService(
    options.db,
    options.clock,
    options.reportLockSeconds ?? DEFAULT_REPORT_LOCK_SECONDS,
  );
  // A report published back by the experts is read-only at the requester's: its key images and co-exams too.
  viewing.keyImages.gateWith(reports.hooks);
  examManage.gateReportsWith(reports.hooks);
  // A consultation's copy of a bound exam is read in the target organization, never reported there.
  reports.hooks.readOnlyWhen((reportId) => isConsultationCopy(options.db, reportId));
  // ...and seen there only by the consultation's participants (the consultations face says who).
  setConsultationCopyGate(consultationCopyAccess);
  setConsultationCopyBinding(consultationBindsCopy);
  // The video room admits a consultation's participants (the consultations face says who).
  const videoRooms = { roomFacts: (id: string, accountId: string) => consultationRoomFacts(options.db, id, accountId) };
  const oidcProvider = oidcProviderOf(options, signer, (claims) => services.accounts.sessionCaller(claims));
  const services: Services = {
    oidcProvider,
    tokens,
    accounts: new AccountsService({
      db: options.db,
      clock: options.clock,
      tokens,
      policies,
      rateLimitMultiplier: options.rateLimitMultiplier,
      sms: options.sms ?? null,
      smsStatus: options.smsStatus,
      sealer: new Sealer(options.jwtSecret, 'sms-access-key'),
    }),
    domain: new DomainService(options.db, options.clock),
    groups: new GroupsService(options.db, options.clock),
    organizations: new OrganizationsService(options.db, options.clock),
    roles: new RolesService(options.db, options.clock),
    rules: new RulesService(options.db, options.clock),
    registry: new RegistryService(options.db, options.clock, examList),
    registryDicom,
    forwarding,
    dimseQueryRetrieve: new DimseQueryRetrieve(options.db, options.blobs, {
      caseInsensitivePn: options.dicomPnCaseInsensitive === true,
    }),
    registryMatch: new RegistryMatch(options.db, options.clock, options.blobs, options.dicomAet),
    procedures: new ProceduresService(options.db, options.clock),
    admin: new AdminService(options.db, options.clock),
    archive,
    exams: new ExamsService(options.db, options.blobs, options.clock, signer),
    examList,
    examManage,
    autoAssign,
    quickSearch: new QuickSearchService(options.db, options.clock),
    exports: new ExportsService(options.db, options.clock, examList),
    jobs,
    ai: new AiService(options.db, options.clock, signer, jobs, app.log),
    uploads: new UploadsService(options.db, options.clock, signer, archive),
    policies,
    notifications,
    signature: new SignatureService(options.db, options.clock, policies),
    attachments: new AttachmentsService(options.db, options.clock, policies),
    viewing,
    reportLibrary,
    reports,
    reportExtras: new ReportExtrasService(options.db, options.clock, reports, reportLibrary),
    reportPrint: new ReportPrintService(options.db, options.blobs, options.clock, policies, reports),
    knowledgeBase: new KnowledgeBaseService(options.db, options.clock),
    reportSharing,
    reportPublish: new ReportPublishService(options.db, options.clock, sharedReports, reportSharing),
    webIntegration: new WebIntegrationService(
      options.db,
      options.clock,
      sharedReports,
      new Sealer(options.jwtSecret, 'group-web-secret'),
    ),
    reportSafety: new ReportSafetyService(options.db, options.clock, reports.hooks),
    statistics: new StatisticsService(options.db, options.clock, { ...reportSources, ...deskSources }),
    calling: callingServices(
      options.db,
      options.clock,
      { publish: (topic, event) => services.live.publish(topic, event) },
      app.log,
    ),
    live: createLiveBus({ databaseUrl: options.databaseUrl, sharedBy: options.db, logger: app.log }),
    liveAccess: new LiveAccess((token) => services.accounts.authenticate(token)),
    video: videoService({
      db: options.db,
      clock: options.clock,
      signer,
      directory: videoRooms,
      bus: { subscribe: (topic, listener) => services.live.subscribe(topic, listener) },
      ice: options.turn,
    }),
    payments: paymentServices({ ...options, signer, log: app.log }),
    orders: ordersServices({ db: options.db, clock: options.clock, reports, jobs, policies, log: app.log }),
    consultations: consultationServices(options.db, options.clock, { discardFile: (key) => policies.discard(key) }),
    // Issue 27: a hospital system's signed entries (on the group's web secret), platform settings, organization look-ups.
    entries: new EntriesService({
      db: options.db,
      clock: options.clock,
      accounts: { issueSingleSignOn: (account) => services.accounts.issueSingleSignOn(account) },
      web: { groupSecret: (groupId) => services.webIntegration.groupSecret(groupId) },
    }),
    // Issue 27: OpenID Connect single sign-on per group (docs/sso.md); client secrets sealed at rest.
    sso: new SsoService({
      db: options.db,
      clock: options.clock,
      accounts: { issueSingleSignOn: (account) => services.accounts.issueSingleSignOn(account) },
      wx: { configured: () => services.wxLogin.configured, start: (r, cb) => services.wxLogin.start(r, cb) },
      oidc: new OpenIdClient(),
      sealer: new Sealer(options.jwtSecret, 'sso-client-secret'),
    }),
    // Issue 27: WeChat website login (docs/wechat-login.md); off unless a provider is given.
    wxLogin: new WxLoginService({
      db: options.db,
      clock: options.clock,
      provider: options.wxLogin ?? null,
      accounts: {
        checkLogin: (username, password, ctx) => services.accounts.checkLogin(username, password, ctx),
        issueWeChat: (account) => services.accounts.issueWeChat(account),
        registerWithoutPassword: (input, ctx, link) => services.accounts.registerWithoutPassword(input, ctx, link),
      },
    }),
    globalConfigs: new GlobalConfigsService(options.db, options.clock),
    // Issue 27: learning videos in the blob store, streamed from signed URLs.
    learnings: new LearningsService(options.db, options.blobs, signer, options.clock),
    orgStructure: new OrgStructureService(
      options.db,
      { get: (bucketId, access) => services.organizations.get(bucketId, access) },
      reportLibrary,
    ),
    speech: new SpeechService(
      { db: options.db, blobs: options.blobs, clock: options.clock, jobs, logger: app.log },
      options.espeakPath ?? 'espeak-ng',
    ),
  };
  app.addHook('onClose', () => services.live.close());
  // An arrival at the desk checks the exam into its modality's queue; the live socket lets
  // accounts that call there, and the organization's screens, follow queue:<bucketId>.
  services.registry.onArrival(checkInOnArrival(services.calling.queue, app.log));
  services.registry.onArrivalUndone(leaveQueueOnArrivalUndone(services.calling.queue, app.log));
  const calling = callingLive(options.db);
  services.liveAccess.topicAuthorizer(calling.topicPrefix, (principal, bucketId) =>
    calling.authorizeQueueTopic(principal, bucketId),
  );
  services.liveAccess.tokenVerifier(calling.scheme, (token) => calling.verifyScreen(token));
  // A video room's signalling: rtc:<roomId>, followed and published on with that room's token only.
  const video = videoLive(signer, options.clock, videoRooms);
  services.liveAccess.topicAuthorizer(video.topicPrefix, (principal, roomId) =>
    video.authorizeTopic(principal, roomId),
  );
  services.liveAccess.publishAuthorizer(video.topicPrefix, (principal, roomId, event) =>
    video.authorizePublish(principal, roomId, event),
  );
  services.liveAccess.tokenVerifier(video.scheme, (token) => video.verifyRoomToken(token));
  app.addHook('onClose', async () => services.video.close());
  // Deliveries under way finish before the database closes.
  app.addHook('onClose', () => notifications.whenIdle());
  app.addHook('onClose', () => autoAssign.whenIdle());
  app.addHook('onClose', () => registryDicom.whenIdle());
  app.addHook('onClose', () => forwarding.whenIdle());
  jobs.start(options.jobIntervalMs ?? 1000);
  app.addHook('onClose', () => jobs.stop());
  const statRefreshEvery = options.statRefreshIntervalMs ?? 10_000;
  if (statRefreshEvery > 0) {
    const refresh = startRollupRefresh(options.db, app.log, statRefreshEvery);
    app.addHook('onClose', () => refresh.stop());
  }
  const purgeEvery = options.purgeIntervalMs ?? 3600_000;
  if (purgeEvery > 0) startDeletedExamPurge(app, services.examList, purgeEvery);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'yyp API', version, description: 'Radiology and teleradiology platform API (spec 001 §7).' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  // nosniff on every answer; the web app's pages get their full header set (installWebPages).
  await installNosniff(app);
  // Text answers above 1 KiB in br or gzip (platform/compression.ts); streams and binary as they are.
  installCompression(app);
  // Only failed and slow requests are logged one by one; a line per request would cost throughput.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500 || reply.elapsedTime > 1000) {
      request.log.warn(
        {
          method: request.method,
          // A viewer path is a credential: never written to the log.
          url: (request.url.split('?')[0] ?? '').replace(/^\/viewer\/[^/]+/, '/viewer/[token]'),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    }
  });

  await app.register(
    async (api) => {
      installAuth(api, options.db, (token) => services.accounts.authenticate(token));
      api.addHook('onSend', async (_request, reply) => {
        // API answers carry PHI and tokens: never cached by browsers or proxies.
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      });
      await apiRoutes(api, options, services, { blobLinks, version });
      api.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, () => app.swagger());
      api.setNotFoundHandler(apiNotFound);
    },
    { prefix: `${API_PREFIX}/` },
  );

  await app.register(
    async (web) => {
      installDicomWebCors(web, options.dicomWebCorsOrigins ?? []);
      // A viewer signed in through yyp's OpenID Connect provider brings its access token (only here).
      installAuth(web, options.db, (token) =>
        oidcProvider?.isAccessToken(token) ? oidcProvider.authenticate(token) : services.accounts.authenticate(token),
      );
      // STOW-RS reads its body as a stream, part by part (dicomweb.routes: stowParts), within
      // the STOW-RS request size.
      web.addContentTypeParser(['multipart/related', 'application/dicom'], (_req, payload, done) =>
        done(null, payload),
      );
      dicomWebRoutes(web, options.db, dicomWeb, {
        stowLimitBytes: options.stowLimitBytes ?? 512 * 1024 * 1024,
        clock: options.clock,
      });
      web.setNotFoundHandler(apiNotFound);
    },
    { prefix: '/dicom-web/' },
  );

  if (oidcProvider) {
    await app.register((scope) => oidcProviderRoutes(scope, oidcProvider), { prefix: OIDC_PROVIDER_PREFIX });
  }

  // POST /yyp/api/text2speech: beside the API, not under /v1 (spec 001 §7 Queue calling).
  await speechRoutes(app, services.speech, services.liveAccess);

  // The live socket, after every HTTP route (its plugin wraps the routes registered after it).
  await installLiveSocket(app, {
    bus: services.live,
    access: services.liveAccess,
    path: `${API_PREFIX}/${LIVE_PATH}`,
    logger: app.log,
    ...options.liveTimings,
  });

  const webDist = options.webDist;
  if (webDist && fs.existsSync(path.join(webDist, 'index.html'))) {
    await installWebPages(app, {
      webDist,
      policy: {
        frameAncestors: options.frameAncestors ?? [],
        blobOrigins: await blobOriginsOf(options.blobs),
        imageOrigins: options.wxLogin?.avatarOrigins ?? [],
      },
    });
  } else {
    app.setNotFoundHandler(apiNotFound);
  }

  return { app, services, routes };
}

/** The OpenID Connect provider for viewers when clients are configured (its issuer needs publicBaseUrl). */
function oidcProviderOf(
  options: AppOptions,
  signer: Signer,
  sessionCaller: ConstructorParameters<typeof OidcProviderService>[0]['accounts']['sessionCaller'],
): OidcProviderService | null {
  const settings = options.oidcProvider;
  if (!settings || settings.clients.length === 0) return null;
  if (!options.publicBaseUrl) throw new Error('The OpenID Connect provider needs PUBLIC_BASE_URL (its issuer)');
  return new OidcProviderService({
    db: options.db,
    clock: options.clock,
    signer,
    publicBaseUrl: options.publicBaseUrl,
    clients: settings.clients,
    key: settings.key,
    grantSeconds: options.tokenTtlSeconds,
    accounts: { sessionCaller },
  });
}
