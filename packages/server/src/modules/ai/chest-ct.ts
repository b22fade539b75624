/**
 * Whether a study is a chest CT, the kind the AI service reads (spec 000 §5: "a non-chest-CT exam
 * is flagged, with a choice to send anyway"): CT among its modalities, and a chest body part or
 * a study description that says chest (胸 in Chinese).
 */
const CHEST_PARTS = new Set(['CHEST', 'THORAX', 'LUNG', 'LUNGS', 'CHESTABDOMEN', 'CHEST_ABDOMEN']);

export function isChestCt(exam: { modality: string; bodyPart: string; studyDesc: string }): boolean {
  const modalities = exam.modality
    .split('\\')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  if (!modalities.includes('CT')) return false;
  const part = exam.bodyPart.trim().toUpperCase().replace(/\s+/g, '');
  if (CHEST_PARTS.has(part)) return true;
  return /chest|thorax|lung|胸|肺/i.test(exam.studyDesc);
}
