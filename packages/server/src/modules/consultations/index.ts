// The face of the consultations module (issue 25): what app.ts and other modules (video, the
// consultations' files and exams) may use. Everything else in this folder is private to it.
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { ConsultationPartsService } from './consultation-parts.service.js';
import { ConsultationSettingsService } from './consultation-settings.service.js';
import { ConsultationsListService } from './consultations-list.service.js';
import { bindConsultationExam, unshareConsultationExams } from './consultation-sharing.js';
import type { ConsultationServices } from './consultations.routes.js';
import { ConsultationsService, type ConsultationHooks } from './consultations.service.js';

export {
  actorOf,
  CONSULTATION_ACTIONS,
  ConsultationAccess,
  consultationActionsIn,
  consultationRoomFacts,
  consultationSide,
  refusalError,
  type ConsultationActor,
  type ConsultationContext,
  type ConsultationRole,
} from './consultation-access.js';
export { findConsultation, lockConsultation } from './consultation-access.store.js';
export { consultationCopyAccess } from './consultation-copy-access.js';
export { copyBound as consultationBindsCopy } from './consultation-exams.store.js';
export { consultationsRoutes, type ConsultationServices } from './consultations.routes.js';
export { consultationFilesRoutes, consultationFilesServices } from './consultations-files.routes.js';
export {
  ConsultationPartsService,
  ConsultationSettingsService,
  ConsultationsListService,
  ConsultationsService,
  type ConsultationHooks,
};

/**
 * The consultation services, wired in one call from app.ts. An exam named at creation is bound and
 * shared at once, and a close (completed, canceled) or a deletion takes the shared exams back, in
 * the change's transaction (consultation-sharing.ts); `hooks` replaces either.
 */
export function consultationServices(db: Db, clock: Clock, hooks: ConsultationHooks = {}): ConsultationServices {
  const consultations = new ConsultationsService(db, clock, {
    bindOnCreate: bindConsultationExam,
    onClose: unshareConsultationExams,
    ...hooks,
  });
  return {
    consultations,
    lists: new ConsultationsListService(db),
    parts: new ConsultationPartsService(db, consultations),
    settings: new ConsultationSettingsService(db, clock),
  };
}
