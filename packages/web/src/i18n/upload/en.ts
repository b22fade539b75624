import type { UploadFailureKind } from '../../features/upload/fileUploader';
import type { SkipReason } from '../../features/upload/skipReasons';
import type { FileStatus } from '../../features/upload/queueItems';

const fileStatus: Record<FileStatus, string> = {
  waiting: 'Waiting',
  uploading: 'Uploading',
  checking: 'Checking',
  done: 'Uploaded',
  skipped: 'Skipped',
  failed: 'Failed',
  cancelled: 'Stopped',
};

const failures: Record<UploadFailureKind, string> = {
  network: 'The connection was lost.',
  sessionClosed: 'The upload session has ended. Start a new upload for this file.',
  tooLarge: 'The file is larger than the server accepts.',
  rejected: 'The server refused the file.',
};

/** Why the server skipped a file (reason codes of its DICOM parser). */
const skipReasons: Record<SkipReason, string> = {
  notDicom: 'Not a DICOM file',
  malformed: 'The DICOM data cannot be read',
  truncated: 'The file is incomplete: its image data is cut short',
  missingUid: 'A required identifier (UID) is missing',
  invalidUid: 'An identifier (UID) is not valid',
  badDimensions: 'The image size or number of frames is not plausible',
  tooDeep: 'The file is nested too deeply to be read',
  conflict: 'Another upload stored the same image at the same moment; send it again',
  archiveDamaged: 'The archive is damaged and cannot be opened',
  archiveTooLarge: 'The archive holds too many files or is too large unpacked (at most 50,000 files, 16 GB)',
  tooLarge: 'The file is too large (at most 1 GB each)',
  zipBomb: 'Refused: the compression ratio is abnormal (a zip bomb?)',
  nestedArchive: 'Archives inside an archive are not opened; unpack it and send the files',
  encrypted: 'The file is encrypted and cannot be read',
  BucketFull: "The organization's plan quota is used up: new studies are not stored",
  SubscriptionExpired: "The organization's subscription has expired: not stored",
  unknown: 'Not stored',
};

/** Texts of the upload wizard (/upload) and of the public upload link page (/upload?token). */
export const uploadEn = {
  upload: {
    entry: 'Upload exams',
    title: 'Upload exams',
    subtitle: 'Send DICOM files or whole folders to an organization.',
    stepFiles: 'Choose files',
    stepInfo: 'Exam info',
    stepUpload: 'Upload',
    stepComplete: 'Complete',
    dropTitle: 'Drop files or folders here',
    dropHint:
      'Any files may be chosen, also .zip archives of a CD export: the DICOM images are stored, other files are listed as skipped.',
    chooseFiles: 'Choose files',
    chooseFolder: 'Choose a folder',
    reading: 'Reading the dropped folders…',
    fileCount: 'Files: {{count}}',
    totalSize: 'Total size: {{size}}',
    noFiles: 'No files chosen yet.',
    clearAll: 'Clear all',
    colFile: 'File',
    colSize: 'Size',
    colStatus: 'Status',
    colReason: 'Reason',
    resumeNotice:
      'An upload to {{organization}} did not finish. Choose the same files again and start: files that already arrived are not sent twice, and unfinished ones continue where they stopped.',
    next: 'Next',
    organization: 'Organization',
    organizationBlocked: '{{organization}} ({{reason}})',
    organizationPlaceholder: 'Choose the organization that receives the exams',
    organizationHint:
      'Patient and study details are read from the DICOM files themselves; correct them below if they are wrong.',
    correction: {
      title: 'Correct the exam details',
      hint: 'Fields left empty keep what the DICOM files say. A value filled in is written on the exams of this upload, and the change is logged; the files themselves are kept as they are.',
      keep: 'As in the files',
      patientName: 'Patient name',
      patientId: 'Patient ID',
      sex: 'Sex',
      sexes: { M: 'Male', F: 'Female', O: 'Other', U: 'Unknown' },
      birthDate: 'Birth date',
      accessionNumber: 'Accession number',
      accessionHint: 'An accession number can only be corrected for an upload of a single study.',
      tooLong: 'At most {{max}} characters',
      refused:
        'The corrections were not accepted and nothing was changed. Finish without them, and correct the exams later in their details.',
      finishWithout: 'Finish without corrections',
    },
    noOrganizationTitle: 'No organization to upload into',
    noOrganizationDescription:
      'None of your roles allows uploading exams. Ask an administrator of your organization for the upload permission.',
    backToStudies: 'Back to the study list',
    startUpload: 'Start upload',
    uploadingTo: 'Uploading to {{organization}}',
    progress: '{{sent}} of {{total}}',
    stop: 'Stop upload',
    stopConfirm: 'Stop the upload? Files that already arrived are kept, and you can continue the others.',
    resume: 'Continue upload',
    retryFailed: 'Retry failed files',
    finish: 'Finish',
    incomplete:
      'Some files did not arrive. Retry them, or finish: the files that arrived are kept and listed in the summary.',
    finishFailed: 'The upload could not be completed.',
    offline: 'The connection is lost. The upload continues by itself as soon as it is back.',
    fileStatus,
    failures,
    completeTitle: 'Upload complete',
    completeNothing: 'No DICOM image was stored',
    completeTo: 'Organization: {{organization}}',
    stored: 'Images stored',
    duplicates: 'Already stored before',
    skipped: 'Files skipped',
    exams: 'Exams',
    skippedTitle: 'Skipped files',
    uploadMore: 'Upload more',
    goToStudies: 'Go to the study list',
  },
  skipReasons,
  uploadLink: {
    title: 'Upload exams to {{organization}}',
    subtitle: 'Files sent with this link go to {{organization}} only.',
    invalidTitle: 'This upload link is not valid',
    invalidDescription:
      'The link is wrong, or the organization has revoked it. Ask the organization for a new upload link.',
  },
};
