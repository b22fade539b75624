/**
 * The level an attribute of a stored header belongs to, for includefield=all (PS3.18 8.3.4.3: the
 * attributes of the level searched): the study's are those of the Patient, General Study and
 * Patient Study modules (PS3.3 C.7.1.1, C.7.2.1, C.7.2.2; a study root query counts the patient's
 * as the study's); the series' those of the General Series, Frame of Reference and General
 * Equipment modules (C.7.3.1, C.7.4.1, C.7.5.1); every other attribute is the instance's.
 */
export type AttributeLevel = 'study' | 'series' | 'instance';

const STUDY = new Set([
  // General Study
  '00080020', // StudyDate
  '00080030', // StudyTime
  '00080050', // AccessionNumber
  '00080051', // IssuerOfAccessionNumberSequence
  '00080090', // ReferringPhysicianName
  '00080096', // ReferringPhysicianIdentificationSequence
  '0008009C', // ConsultingPhysicianName
  '00081030', // StudyDescription
  '00081032', // ProcedureCodeSequence
  '00081048', // PhysiciansOfRecord
  '00081060', // NameOfPhysiciansReadingStudy
  '00081080', // AdmittingDiagnosesDescription
  '00081110', // ReferencedStudySequence
  '0020000D', // StudyInstanceUID
  '00200010', // StudyID
  '00321034', // RequestingServiceCodeSequence
  '00321060', // RequestedProcedureDescription
  '00401012', // ReasonForPerformedProcedureCodeSequence
  // Patient Study
  '00101010', // PatientAge
  '00101020', // PatientSize
  '00101030', // PatientWeight
  '00102000', // MedicalAlerts
  '00102110', // Allergies
  '00102180', // Occupation
  '001021B0', // AdditionalPatientHistory
  '001021C0', // PregnancyStatus
  '00380010', // AdmissionID
  '00380500', // PatientState
]);

const SERIES = new Set([
  // General Series
  '00080021', // SeriesDate
  '00080031', // SeriesTime
  '00080060', // Modality
  '0008103E', // SeriesDescription
  '00081050', // PerformingPhysicianName
  '00081070', // OperatorsName
  '00081111', // ReferencedPerformedProcedureStepSequence
  '00180015', // BodyPartExamined
  '00181030', // ProtocolName
  '00185100', // PatientPosition
  '0020000E', // SeriesInstanceUID
  '00200011', // SeriesNumber
  '00200060', // Laterality
  '00400244', // PerformedProcedureStepStartDate
  '00400245', // PerformedProcedureStepStartTime
  '00400253', // PerformedProcedureStepID
  '00400254', // PerformedProcedureStepDescription
  '00400275', // RequestAttributesSequence
  // Frame of Reference
  '00200052', // FrameOfReferenceUID
  '00201040', // PositionReferenceIndicator
  // General Equipment
  '00080070', // Manufacturer
  '00080080', // InstitutionName
  '00080081', // InstitutionAddress
  '00081010', // StationName
  '00081040', // InstitutionalDepartmentName
  '00081090', // ManufacturerModelName
  '00181000', // DeviceSerialNumber
  '00181020', // SoftwareVersions
]);

/** The level of an attribute (tag as 8 upper-case hex digits). */
export function attributeLevel(tag: string): AttributeLevel {
  // The Patient module is group 0010 (the Patient Study module's attributes are listed above).
  if (STUDY.has(tag)) return 'study';
  if (SERIES.has(tag)) return 'series';
  if (tag.startsWith('0010')) return 'study';
  return 'instance';
}
