import type { OidcProviderService } from './modules/oidc-provider/index.js';
import type { AccountsService } from './modules/accounts/index.js';
import type { AdminService } from './modules/admin/index.js';
import type { AiService } from './modules/ai/index.js';
import type { ArchiveService } from './modules/archive/index.js';
import type { AttachmentsService } from './modules/attachments/index.js';
import type { CallingServices } from './modules/calling/index.js';
import type { ConsultationServices } from './modules/consultations/index.js';
import type { DomainService } from './modules/domain/index.js';
import type { AutoAssigner, ExamListService, ExamManageService, ExamsService } from './modules/exams/index.js';
import type { ExportsService } from './modules/exports/index.js';
import type { GroupsService } from './modules/groups/index.js';
import type { NotificationsService } from './modules/notifications/index.js';
import type { OrganizationsService } from './modules/organizations/index.js';
import type { PaymentServices } from './modules/payments/index.js';
import type { PoliciesService } from './modules/policies/index.js';
import type { QuickSearchService } from './modules/quick-search/index.js';
import type { DimseQueryRetrieve } from './modules/dicomweb/index.js';
import type { ForwardingService } from './modules/forwarding/index.js';
import type { ProceduresService, RegistryDicom, RegistryMatch, RegistryService } from './modules/registry/index.js';
import type { KnowledgeBaseService, ReportLibraryService } from './modules/report-library/index.js';
import type { ReportPrintService } from './modules/report-print/index.js';
import type { ReportSafetyService } from './modules/report-safety/index.js';
import type { StatisticsService } from './modules/statistics/index.js';
import type {
  ReportPublishService,
  ReportSharingService,
  WebIntegrationService,
} from './modules/report-sharing/index.js';
import type { ReportExtrasService, ReportsService } from './modules/reports/index.js';
import type { ordersServices } from './modules/orders/index.js';
import type { RolesService } from './modules/roles/index.js';
import type { RulesService } from './modules/rules/index.js';
import type { SignatureService } from './modules/signature/index.js';
import type { SpeechService } from './modules/speech/index.js';
import type { UploadsService } from './modules/uploads/index.js';
import type { ViewingService } from './modules/viewing/index.js';
import type { JobQueue } from './platform/jobs.js';
import type { LiveAccess } from './platform/live-access.js';
import type { LiveBus } from './platform/live.js';
import type { TokenService } from './platform/tokens.js';
import type { VideoService } from './modules/video/index.js';
import type { EntriesService } from './modules/entries/index.js';
import type { SsoService } from './modules/sso/index.js';
import type { WxLoginService } from './modules/wxlogin/index.js';
import type { GlobalConfigsService } from './modules/global-configs/index.js';
import type { LearningsService } from './modules/learnings/index.js';
import type { OrgStructureService } from './modules/org-structure/index.js';

/** The app's services (buildApp in app.ts makes them): what routes, the CLI and tests reach. */
export interface Services {
  accounts: AccountsService;
  /** a hospital system's signed entries (/ss-login, /go: GET tokens; issue 27) */
  entries: EntriesService;
  /** OpenID Connect single sign-on per group (issue 27; docs/sso.md) */
  sso: SsoService;
  /** yyp as an OpenID Connect provider for viewers (OHIF); null while OIDC_PROVIDER_CLIENTS is empty */
  oidcProvider: OidcProviderService | null;
  /** WeChat website login (issue 27; docs/wechat-login.md) */
  wxLogin: WxLoginService;
  /** platform settings by key (issue 27) */
  globalConfigs: GlobalConfigsService;
  /** learning videos (issue 27) */
  learnings: LearningsService;
  /** structure-code, find-one, an organization's report templates (issue 27) */
  orgStructure: OrgStructureService;
  domain: DomainService;
  tokens: TokenService;
  groups: GroupsService;
  organizations: OrganizationsService;
  roles: RolesService;
  rules: RulesService;
  registry: RegistryService;
  /** the registry seen from the modalities: worklist, MPPS, stored studies tied to their schedule */
  registryDicom: RegistryDicom;
  /** the archive seen from workstations: Query/Retrieve C-FIND, C-MOVE, C-GET (issue 28) */
  dimseQueryRetrieve: DimseQueryRetrieve;
  /** sends to other DICOM nodes: forwarding rules, sends by hand, their jobs (issue 28) */
  forwarding: ForwardingService;
  /** image binding: unscheduled exams matched or bound to scheduled exams by hand */
  registryMatch: RegistryMatch;
  procedures: ProceduresService;
  admin: AdminService;
  archive: ArchiveService;
  exams: ExamsService;
  examList: ExamListService;
  examManage: ExamManageService;
  autoAssign: AutoAssigner;
  quickSearch: QuickSearchService;
  exports: ExportsService;
  jobs: JobQueue;
  ai: AiService;
  uploads: UploadsService;
  policies: PoliciesService;
  notifications: NotificationsService;
  signature: SignatureService;
  attachments: AttachmentsService;
  viewing: ViewingService;
  reportLibrary: ReportLibraryService;
  knowledgeBase: KnowledgeBaseService;
  reports: ReportsService;
  reportExtras: ReportExtrasService;
  reportPrint: ReportPrintService;
  reportSharing: ReportSharingService;
  reportPublish: ReportPublishService;
  webIntegration: WebIntegrationService;
  reportSafety: ReportSafetyService;
  /** statistics (issue 26): tables by dimension and period over the organizations the caller may count */
  statistics: StatisticsService;
  /** patient calling (issue 23): queue types and settings, the queue, its actions, screens */
  calling: CallingServices;
  /** live events across instances (platform/live.ts): modules publish, sockets subscribe */
  live: LiveBus;
  /** who may receive which live topic, and token schemes beside accounts (platform/live-access.ts) */
  liveAccess: LiveAccess;
  /** consultations' video rooms (issue 25): room tokens, ICE servers, who is in a room */
  video: VideoService;
  /** text-to-speech of announcements (espeak-ng), cached in the blob store */
  speech: SpeechService;
  /** remote and expert report orders (issue 24): products, applying, the report back, turnaround */
  orders: ReturnType<typeof ordersServices>;
  /** charges, the balance channel, WeChat notifications, refunds, invoices, payment lists (issue 24) */
  payments: PaymentServices;
  /** consultations (issue 25): requests, their life, lists, the groups' targets and rating config */
  consultations: ConsultationServices;
}
