import type { Widen } from '../widen';
import type { studyMediaEn } from './en';

/** 简体中文：所选检查导出为一张 DICOM 光盘（含 DICOMDIR 的 CD/DVD 介质）。 */
export const studyMediaChs: Widen<typeof studyMediaEn> = {
  studyMedia: {
    action: '导出 DICOM 光盘（{{count}}）',
    tip: '将所选检查下载为一张 DICOM 光盘镜像（DICOMDIR 与影像文件，可刻录到 CD 或 DVD）',
    selectHint: '请选择检查，合并导出为一张 DICOM 光盘。',
    none: '您不能下载所选检查的影像。',
    someLeft: '所选检查中有 {{count}} 个您不能下载，将不导出。',
    tooMany: '一张光盘最多 {{max}} 个检查，请少选一些。',
    started: '已开始下载 {{count}} 个检查。',
  },
};
