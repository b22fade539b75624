/** Names inside the zip use only safe characters, whatever the DICOM values held. */
export function safeName(s: string, fallback: string): string {
  const cleaned = s
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 64);
  return cleaned || fallback;
}

/**
 * The study package's name (its download's file name and the zip's top folder): the accession
 * number when the exam has one, else the exam's own id. Never the patient's name, ID or birth
 * date, nor a date or UID of the study: a downloaded file's name travels (download folders,
 * e-mails, shares) where its content does not. Inside the folder the package is DICOM media
 * (package-media.ts): DICOMDIR, DICOM/…, INDEX.HTM and README.TXT, no UID or patient value in any
 * name.
 */
export function packageName(exam: { id: string; accessionNumber: string }): string {
  return `study-${safeName(exam.accessionNumber, '') || safeName(exam.id, 'exam')}`;
}
