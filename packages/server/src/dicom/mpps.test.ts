import { describe, expect, it } from 'vitest';
import { DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE, tag } from './dataset-writer.js';
import { MPPS_TAG, MppsError, parseMppsAttributes } from './mpps.js';
import { mppsInProgress } from './testdata/mpps.js';

const code = (meaning: string) =>
  new DatasetBuilder('ISO_IR 192')
    .text(tag(0x0008, 0x0100), 'SH', '110514')
    .text(tag(0x0008, 0x0102), 'SH', 'DCM')
    .text(MPPS_TAG.codeMeaning, 'LO', meaning);

describe('parseMppsAttributes', () => {
  it('reads an N-CREATE: status, station, start, scheduled steps, patient, in both transfer syntaxes', () => {
    for (const ts of [EXPLICIT_VR_LE, IMPLICIT_VR_LE]) {
      const bytes = mppsInProgress({
        charset: 'GB18030',
        patientName: '张三^',
        startTime: '101500',
        steps: [
          {
            studyInstanceUid: '1.2.3',
            accessionNumber: 'A1',
            scheduledProcedureStepId: 'SPS1',
            requestedProcedureId: 'RP1',
          },
          { accessionNumber: 'A2' },
        ],
      }).toBuffer(ts === EXPLICIT_VR_LE);
      expect(parseMppsAttributes(bytes, ts)).toEqual({
        status: 'IN PROGRESS',
        performedStationAeTitle: 'CT_ROOM_1',
        startDate: '20261127',
        startTime: '101500',
        endDate: '',
        endTime: '',
        patientName: '张三^',
        patientId: 'P1',
        performedSeriesCount: 0,
        scheduledSteps: [
          {
            studyInstanceUid: '1.2.3',
            accessionNumber: 'A1',
            scheduledProcedureStepId: 'SPS1',
            requestedProcedureId: 'RP1',
          },
          { studyInstanceUid: '', accessionNumber: 'A2', scheduledProcedureStepId: '', requestedProcedureId: '' },
        ],
      });
    }
  });

  it('reads an N-SET: only what it carries, the performed series counted, the discontinuation reason', () => {
    const completed = new DatasetBuilder()
      .text(MPPS_TAG.status, 'CS', 'COMPLETED')
      .text(MPPS_TAG.endDate, 'DA', '20261127')
      .text(MPPS_TAG.endTime, 'TM', '')
      .sequence(MPPS_TAG.performedSeriesSequence, [new DatasetBuilder(), new DatasetBuilder(), new DatasetBuilder()])
      .toBuffer(true);
    expect(parseMppsAttributes(completed, EXPLICIT_VR_LE)).toEqual({
      status: 'COMPLETED',
      endDate: '20261127',
      endTime: '',
      performedSeriesCount: 3,
    });
    const discontinued = new DatasetBuilder('ISO_IR 192')
      .text(tag(0x0008, 0x0005), 'CS', 'ISO_IR 192')
      .text(MPPS_TAG.status, 'CS', 'DISCONTINUED')
      .sequence(MPPS_TAG.discontinuationReasonCodeSequence, [code('Patient refused'), code('设备故障')])
      .toBuffer(false);
    expect(parseMppsAttributes(discontinued, IMPLICIT_VR_LE)).toEqual({
      status: 'DISCONTINUED',
      discontinuationReason: 'Patient refused; 设备故障',
    });
    expect(parseMppsAttributes(Buffer.alloc(0), EXPLICIT_VR_LE)).toEqual({});
  });

  it('refuses an unknown status and an unreadable list with an MppsError', () => {
    const done = new DatasetBuilder().text(MPPS_TAG.status, 'CS', 'DONE').toBuffer(true);
    expect(() => parseMppsAttributes(done, EXPLICIT_VR_LE)).toThrow(MppsError);
    expect(() => parseMppsAttributes(Buffer.from([0x40, 0, 0x52, 0x02, 0x43]), EXPLICIT_VR_LE)).toThrow(MppsError);
  });
});
