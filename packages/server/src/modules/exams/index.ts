// The face of the exams module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { AutoAssigner } from './auto-assign.js';
export { bindImages, findBindableExam, lockBindableExam, takeScheduledIdentity } from './exams.bind.store.js';
export type { BindableExam, ScheduledIdentity } from './exams.bind.store.js';
export { hiddenConsultationCopies, setConsultationCopyBinding, setConsultationCopyGate } from './exams.copy-gate.js';
export type { ConsultationCopyGate } from './exams.copy-gate.js';
export { copyExamInto, EXAM_COPY_SOURCES, isConsultationCopy, removeExamCopy } from './exams.copy.store.js';
export type { ExamCopySource } from './exams.copy.store.js';
export { backfillNameInitials } from './exams.lifecycle.store.js';
export { examListRoutes } from './exams.list.routes.js';
export { ExamListService } from './exams.list.service.js';
export { countExams, listExams } from './exams.list.store.js';
export { examManageRoutes } from './exams.manage.routes.js';
export { extensionProblems, missingRequired } from './exams.manage.rules.js';
export type { ExtensionConfig } from './exams.manage.rules.js';
export { ExamManageService } from './exams.manage.service.js';
export { dictionaryItems, membersWithAccess } from './exams.manage.store.js';
export { examAge, shownPatient } from './exams.presenter.js';
export { examRoutes } from './exams.routes.js';
export { applyRegistrationFields } from './exams.registration.store.js';
export type { RegistrationFields } from './exams.registration.store.js';
export { auditExam, ExamsService } from './exams.service.js';
export { ownerOfExam } from './exams.owners.js';
export { refuseMaskedFiles } from './files-privacy.js';
export type { FilesCaller } from './files-privacy.js';
