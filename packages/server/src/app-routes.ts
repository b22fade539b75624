import type { FastifyInstance } from 'fastify';
import type { AppOptions } from './app-options.js';
import type { Services } from './app-services.js';
import { accountRoutes } from './modules/accounts/index.js';
import { adminRoutes } from './modules/admin/index.js';
import { aiRoutes } from './modules/ai/index.js';
import { archiveRoutes } from './modules/archive/index.js';
import { attachmentRoutes } from './modules/attachments/index.js';
import { blobRoutes, BlobTransferService } from './modules/blobs/index.js';
import { callingRoutes } from './modules/calling/index.js';
import {
  consultationFilesRoutes,
  consultationFilesServices,
  consultationsRoutes,
} from './modules/consultations/index.js';
import { creditRoutes, CreditsService, PlansService } from './modules/credits/index.js';
import { domainRoutes } from './modules/domain/index.js';
import { examListRoutes, examManageRoutes, examRoutes } from './modules/exams/index.js';
import { exportRoutes } from './modules/exports/index.js';
import { forwardingRoutes } from './modules/forwarding/index.js';
import { groupRoutes } from './modules/groups/index.js';
import { healthRoutes } from './modules/health/index.js';
import { notificationRoutes } from './modules/notifications/index.js';
import { ordersRoutes } from './modules/orders/index.js';
import { organizationRoutes } from './modules/organizations/index.js';
import { paymentRoutes } from './modules/payments/index.js';
import { policyRoutes } from './modules/policies/index.js';
import { quickSearchRoutes } from './modules/quick-search/index.js';
import {
  procedureRoutes,
  registryMatchRoutes,
  RegistryExtensionsService,
  registryOrderRoutes,
  RegistryOrdersService,
  registryRoutes,
} from './modules/registry/index.js';
import { registryPrintRoutes, RegistryPrintService } from './modules/registry-print/index.js';
import { reportLibraryRoutes, reportViewRoutes, ReportViewService } from './modules/report-library/index.js';
import { reportPrintRoutes } from './modules/report-print/index.js';
import { reportSafetyRoutes } from './modules/report-safety/index.js';
import { statisticsRoutes } from './modules/statistics/index.js';
import { reportSharingRoutes } from './modules/report-sharing/index.js';
import { reportsRoutes } from './modules/reports/index.js';
import { roleRoutes } from './modules/roles/index.js';
import { ruleRoutes } from './modules/rules/index.js';
import { signatureRoutes } from './modules/signature/index.js';
import { viewingRoutes } from './modules/viewing/index.js';
import { installTus, uploadRoutes } from './modules/uploads/index.js';
import type { BlobLinks } from './platform/blob-links.js';
import { videoRoutes } from './modules/video/index.js';
import { consultationSide } from './modules/consultations/index.js';
import { entryRoutes } from './modules/entries/index.js';
import { ssoRoutes } from './modules/sso/index.js';
import { oidcInteractionRoutes } from './modules/oidc-provider/index.js';
import { wxLoginRoutes } from './modules/wxlogin/index.js';
import { globalConfigRoutes } from './modules/global-configs/index.js';
import { learningRoutes } from './modules/learnings/index.js';
import { orgStructureRoutes } from './modules/org-structure/index.js';

export const API_PREFIX = '/yyp/api/v1';

export interface RouteInfo {
  method: string;
  url: string;
  auth: unknown;
}

/** Every API and DICOMweb route as it is registered, for the authorization matrix test. */
export function collectApiRoutes(app: FastifyInstance): RouteInfo[] {
  const routes: RouteInfo[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX) && !route.url.startsWith('/dicom-web')) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, auth: route.config?.auth });
    }
  });
  return routes;
}

/**
 * Every module's calls under /yyp/api/v1/ (spec 001 §7), registered on the API scope `api` (auth
 * installed, answers not cached). A new module adds its line here, not to app.ts.
 */
export async function apiRoutes(
  api: FastifyInstance,
  options: AppOptions,
  services: Services,
  { blobLinks, version }: { blobLinks: BlobLinks; version: string },
): Promise<void> {
  healthRoutes(api, options.db, version);
  domainRoutes(api, services.domain);
  accountRoutes(api, services.accounts);
  groupRoutes(api, services.groups);
  organizationRoutes(api, services.organizations);
  roleRoutes(api, options.db, services.roles);
  ruleRoutes(api, services.rules);
  registryRoutes(api, services.registry);
  registryMatchRoutes(api, options.db, services.registryMatch);
  registryOrderRoutes(
    api,
    new RegistryOrdersService(options.db, options.clock),
    new RegistryExtensionsService(options.db, options.clock, services.organizations),
  );
  registryPrintRoutes(api, new RegistryPrintService(options.db, options.clock));
  callingRoutes(api, options.db, services.calling);
  videoRoutes(api, services.video, (param) => consultationSide(options.db, param));
  procedureRoutes(api, options.db, services.procedures);
  forwardingRoutes(api, options.db, services.forwarding);
  adminRoutes(api, options.db, services.admin);
  archiveRoutes(api, services.archive);
  examRoutes(api, options.db, services.exams);
  examListRoutes(api, options.db, services.examList);
  examManageRoutes(api, options.db, services.examManage);
  quickSearchRoutes(api, services.quickSearch);
  exportRoutes(api, services.exports);
  aiRoutes(api, options.db, services.ai);
  uploadRoutes(api, options.db, services.uploads);
  notificationRoutes(api, services.notifications);
  installTus(api, services.uploads, options.uploadDir, options.publicBaseUrl);
  policyRoutes(api, services.policies);
  signatureRoutes(api, services.signature);
  attachmentRoutes(api, options.db, services.attachments);
  viewingRoutes(api, options.db, services.viewing);
  reportLibraryRoutes(api, options.db, services.reportLibrary, services.knowledgeBase);
  reportViewRoutes(api, new ReportViewService(options.db, options.clock));
  reportsRoutes(api, options.db, services.reports, services.reportExtras, services.viewing);
  reportPrintRoutes(api, options.db, services.reportPrint);
  reportSharingRoutes(api, options.db, services.reportSharing, services.reportPublish, services.webIntegration);
  entryRoutes(api, services.entries);
  ssoRoutes(api, services.sso, options.publicBaseUrl);
  oidcInteractionRoutes(api, services.oidcProvider);
  wxLoginRoutes(api, services.wxLogin);
  globalConfigRoutes(api, services.globalConfigs);
  learningRoutes(api, services.learnings);
  orgStructureRoutes(api, services.orgStructure);
  reportSafetyRoutes(api, options.db, services.reportSafety);
  statisticsRoutes(api, services.statistics);
  ordersRoutes(api, options.db, services.orders);
  consultationsRoutes(api, options.db, services.consultations);
  consultationFilesRoutes(
    api,
    options.db,
    consultationFilesServices({ ...options, policies: services.policies, core: services.consultations }),
  );
  await paymentRoutes(api, options.db, services.payments);
  creditRoutes(api, new CreditsService(options.db, options.clock), new PlansService(options.db, options.clock));
  blobRoutes(api, new BlobTransferService(options.blobs, blobLinks, options.clock));
}
