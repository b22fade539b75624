// The face of the consultations module (issue 25): what app.ts and other modules (video, the
// consultations' files and exams) may use. Everything else in this folder is private to it.
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
