import { describe, expect, it } from 'vitest';
import {
  COMMAND,
  NO_DATASET,
  TAG,
  commandUid,
  commandUs,
  decodeCommand,
  encodeCommandPData,
  encodeRequest,
  encodeResponse,
} from './dimse-command.js';
import {
  APPLICATION_CONTEXT,
  PDU,
  UlError,
  decodeAssociateAc,
  decodeAssociateRq,
  encodeAbort,
  encodeAssociateAc,
  encodeAssociateRj,
  encodeAssociateRq,
} from './ul.js';
import { decodePData, decodePDataChunks, encodePData, encodePDataBatch } from './ul-pdata.js';

/* Builders of what an SCU sends, written from PS3.8 independently of the decoder. */
function item(type: number, value: Buffer): Buffer {
  const h = Buffer.alloc(4);
  h[0] = type;
  h.writeUInt16BE(value.length, 2);
  return Buffer.concat([h, value]);
}
const text = (s: string) => Buffer.from(s, 'latin1');
const pad16 = (s: string) => text(s.padEnd(16, ' '));

function associateRqBody(opts: {
  called?: string;
  calling?: string;
  context?: string;
  contexts?: { id: number; abstract: string; ts: string[] }[];
  maxPdu?: number;
  version?: number;
}): Buffer {
  const fixed = Buffer.alloc(68);
  fixed.writeUInt16BE(opts.version ?? 1, 0);
  pad16(opts.called ?? 'YYP').copy(fixed, 4);
  pad16(opts.calling ?? 'CT01').copy(fixed, 20);
  const parts = [fixed, item(0x10, text(opts.context ?? APPLICATION_CONTEXT))];
  for (const c of opts.contexts ?? []) {
    parts.push(
      item(
        0x20,
        Buffer.concat([
          Buffer.from([c.id, 0, 0, 0]),
          item(0x30, text(c.abstract)),
          ...c.ts.map((t) => item(0x40, text(t))),
        ]),
      ),
    );
  }
  const max = Buffer.alloc(4);
  max.writeUInt32BE(opts.maxPdu ?? 16384, 0);
  parts.push(
    item(
      0x50,
      Buffer.concat([
        item(0x51, max),
        item(0x52, text('1.2.276.0.7230010.3.0.3.6.7\0')),
        item(0x55, text('OFFIS_DCMTK_367')),
      ]),
    ),
  );
  return Buffer.concat(parts);
}

describe('A-ASSOCIATE-RQ decoding', () => {
  it('reads AE titles, application context, presentation contexts and user information', () => {
    const rq = decodeAssociateRq(
      associateRqBody({
        called: 'YYP',
        calling: 'CT01',
        contexts: [
          { id: 1, abstract: '1.2.840.10008.5.1.4.1.1.2', ts: ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'] },
          { id: 3, abstract: '1.2.840.10008.1.1\0', ts: ['1.2.840.10008.1.2'] },
        ],
        maxPdu: 32768,
      }),
    );
    expect(rq).toEqual({
      calledAe: 'YYP',
      callingAe: 'CT01',
      applicationContext: APPLICATION_CONTEXT,
      contexts: [
        {
          id: 1,
          abstractSyntax: '1.2.840.10008.5.1.4.1.1.2',
          transferSyntaxes: ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'],
        },
        { id: 3, abstractSyntax: '1.2.840.10008.1.1', transferSyntaxes: ['1.2.840.10008.1.2'] },
      ],
      maxPduLength: 32768,
      implementationClassUid: '1.2.276.0.7230010.3.0.3.6.7',
      implementationVersion: 'OFFIS_DCMTK_367',
      roles: [],
    });
  });

  it('refuses truncated requests, overrunning items, an even protocol version and a missing context', () => {
    const good = associateRqBody({ contexts: [{ id: 1, abstract: '1.2.840.10008.1.1', ts: ['1.2.840.10008.1.2'] }] });
    expect(() => decodeAssociateRq(good.subarray(0, 40))).toThrow(UlError);
    expect(() => decodeAssociateRq(good.subarray(0, good.length - 3))).toThrow(UlError);
    expect(() => decodeAssociateRq(associateRqBody({ version: 2 }))).toThrow(/protocol version/);
    const noContext = Buffer.alloc(68);
    noContext.writeUInt16BE(1, 0);
    expect(() => decodeAssociateRq(noContext)).toThrow(/application context/);
    // A presentation context whose sub-item claims more bytes than the item holds.
    const bad = Buffer.concat([
      good.subarray(0, 68),
      item(0x10, text(APPLICATION_CONTEXT)),
      item(0x20, Buffer.concat([Buffer.from([1, 0, 0, 0]), Buffer.from([0x30, 0, 0x00, 0xff])])),
    ]);
    expect(() => decodeAssociateRq(bad)).toThrow(UlError);
  });
});

describe('answers to an association request', () => {
  it('A-ASSOCIATE-AC echoes the AE titles and carries one result per context and our max PDU', () => {
    const ac = encodeAssociateAc(
      { calledAe: 'YYP', callingAe: 'CT01' },
      [
        { id: 1, result: 0, transferSyntax: '1.2.840.10008.1.2.1' },
        { id: 3, result: 3, transferSyntax: '1.2.840.10008.1.2' },
      ],
      { maxPduLength: 1_048_576, implementationClassUid: '1.2.3', implementationVersion: 'YYP_1' },
    );
    expect(ac[0]).toBe(PDU.associateAc);
    expect(ac.readUInt32BE(2)).toBe(ac.length - 6);
    const body = ac.subarray(6);
    expect(body.readUInt16BE(0)).toBe(1);
    expect(body.toString('latin1', 4, 20)).toBe('YYP             ');
    expect(body.toString('latin1', 20, 36)).toBe('CT01            ');
    // Walk the items: application context, two presentation contexts (0x21), user information.
    const items: { type: number; value: Buffer }[] = [];
    for (let at = 68; at < body.length;) {
      const len = body.readUInt16BE(at + 2);
      items.push({ type: body[at]!, value: body.subarray(at + 4, at + 4 + len) });
      at += 4 + len;
    }
    expect(items.map((i) => i.type)).toEqual([0x10, 0x21, 0x21, 0x50]);
    expect(items[0]!.value.toString('latin1')).toBe(APPLICATION_CONTEXT);
    expect([items[1]!.value[0], items[1]!.value[2]]).toEqual([1, 0]);
    expect(items[1]!.value.subarray(8).toString('latin1')).toBe('1.2.840.10008.1.2.1');
    expect([items[2]!.value[0], items[2]!.value[2]]).toEqual([3, 3]);
    const user = items[3]!.value;
    expect(user[0]).toBe(0x51);
    expect(user.readUInt32BE(4)).toBe(1_048_576);
  });

  it('carries SCP/SCU role selections both ways (a C-GET requestor taking the SCP role of storage)', () => {
    const roles = [
      { sopClass: '1.2.840.10008.5.1.4.1.1.2', scu: false, scp: true },
      { sopClass: '1.2.840.10008.5.1.4.1.1.4', scu: true, scp: true },
    ];
    const ours = { maxPduLength: 16384, implementationClassUid: '1.2.3', implementationVersion: 'TEST', roles };
    const contexts = [
      { id: 1, abstractSyntax: '1.2.840.10008.5.1.4.1.1.2', transferSyntaxes: ['1.2.840.10008.1.2.1'] },
    ];
    const rq = encodeAssociateRq({ calledAe: 'YYP', callingAe: 'WS', contexts }, ours);
    expect(decodeAssociateRq(rq.subarray(6)).roles).toEqual(roles);
    const ac = encodeAssociateAc(
      { calledAe: 'YYP', callingAe: 'WS' },
      [{ id: 1, result: 0, transferSyntax: '1.2.840.10008.1.2.1' }],
      ours,
    );
    expect(decodeAssociateAc(ac.subarray(6)).roles).toEqual(roles);
  });

  it('what an SCU sends and reads: an A-ASSOCIATE-RQ the decoder reads back, an AC decoded', () => {
    const ours = { maxPduLength: 32768, implementationClassUid: '1.2.3', implementationVersion: 'TEST' };
    const contexts = [
      {
        id: 1,
        abstractSyntax: '1.2.840.10008.5.1.4.31',
        transferSyntaxes: ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'],
      },
      { id: 3, abstractSyntax: '1.2.840.10008.3.1.2.3.3', transferSyntaxes: ['1.2.840.10008.1.2'] },
    ];
    const rq = encodeAssociateRq({ calledAe: 'YYP', callingAe: 'CT01', contexts }, ours);
    expect(rq[0]).toBe(PDU.associateRq);
    expect(decodeAssociateRq(rq.subarray(6))).toEqual({
      calledAe: 'YYP',
      callingAe: 'CT01',
      applicationContext: APPLICATION_CONTEXT,
      contexts,
      maxPduLength: 32768,
      implementationClassUid: '1.2.3',
      implementationVersion: 'TEST',
      roles: [],
    });
    const answers = [
      { id: 1, result: 0, transferSyntax: '1.2.840.10008.1.2.1' },
      { id: 3, result: 3, transferSyntax: '1.2.840.10008.1.2' },
    ];
    const ac = encodeAssociateAc({ calledAe: 'YYP', callingAe: 'CT01' }, answers, ours);
    expect(decodeAssociateAc(ac.subarray(6))).toEqual({ contexts: answers, maxPduLength: 32768, roles: [] });
    expect(() => decodeAssociateAc(ac.subarray(6, 40))).toThrow(UlError);
  });

  it('A-ASSOCIATE-RJ and A-ABORT are fixed 10-byte PDUs', () => {
    expect([...encodeAssociateRj(1, 1, 3)]).toEqual([3, 0, 0, 0, 0, 4, 0, 1, 1, 3]);
    expect([...encodeAbort(2, 2)]).toEqual([7, 0, 0, 0, 0, 4, 0, 0, 2, 2]);
  });
});

describe('P-DATA-TF', () => {
  it('splits PDV items into context, command/last flags and data views', () => {
    const pdv = (ctx: number, control: number, data: Buffer) => {
      const h = Buffer.alloc(6);
      h.writeUInt32BE(data.length + 2, 0);
      h[4] = ctx;
      h[5] = control;
      return Buffer.concat([h, data]);
    };
    const body = Buffer.concat([pdv(1, 0x03, text('cmd')), pdv(1, 0x00, text('frag1')), pdv(1, 0x02, text('end'))]);
    expect(decodePData(body).map((p) => [p.contextId, p.command, p.last, p.data.toString()])).toEqual([
      [1, true, true, 'cmd'],
      [1, false, false, 'frag1'],
      [1, false, true, 'end'],
    ]);
    expect(() => decodePData(body.subarray(0, body.length - 1))).toThrow(UlError);
    expect(() => decodePData(Buffer.from([0, 0, 0, 1, 1]))).toThrow(UlError);

    // The same body cut into network chunks at every pair of places: the same items, as views.
    const flat = (d: Buffer[]) => Buffer.concat(d).toString();
    const whole = decodePData(body).map((p) => [p.contextId, p.command, p.last, p.data.toString()]);
    for (let a = 0; a <= body.length; a++) {
      for (let b = a; b <= body.length; b++) {
        const chunks = [body.subarray(0, a), body.subarray(a, b), body.subarray(b)];
        const pdvs = decodePDataChunks(chunks);
        expect(pdvs.map((p) => [p.contextId, p.command, p.last, flat(p.data)])).toEqual(whole);
        for (const p of pdvs) for (const d of p.data) expect(d.buffer).toBe(body.buffer);
        const cut = Math.min(a, body.length - 1);
        expect(() => decodePDataChunks([body.subarray(0, cut), body.subarray(cut, body.length - 1)])).toThrow(UlError);
      }
    }
  });

  it('a command P-DATA-TF is one PDV flagged command + last', () => {
    const p = encodeCommandPData(5, text('abcd'));
    expect(p[0]).toBe(PDU.pData);
    expect(p.readUInt32BE(2)).toBe(4 + 2 + 4);
    expect(decodePData(p.subarray(6))).toEqual([{ contextId: 5, command: true, last: true, data: text('abcd') }]);
  });

  it('a data set is cut into PDUs within the peer maximum length (of the PDU body), the last fragment flagged', () => {
    const data = Buffer.alloc(25, 7);
    const pdus = encodePData(3, data, false, 16);
    expect(pdus.map((p) => p.readUInt32BE(2))).toEqual([16, 16, 11]);
    const pdvs = pdus.flatMap((p) => decodePData(p.subarray(6)));
    expect(pdvs.map((p) => [p.contextId, p.command, p.last])).toEqual([
      [3, false, false],
      [3, false, false],
      [3, false, true],
    ]);
    expect(Buffer.concat(pdvs.map((p) => p.data))).toEqual(data);
    expect(encodePData(3, data, false, 0)).toHaveLength(1);
  });
  it('a batch of command and data sets is the PDUs encodePData gives for each, back to back; commands never cut', () => {
    const command = text('cmd!');
    const data = [Buffer.alloc(25, 7), Buffer.alloc(0), Buffer.alloc(9, 1)];
    for (const max of [0, 16, 7, 65536]) {
      const parts = data.flatMap((bytes) => [
        { command: true, bytes: command },
        { command: false, bytes },
      ]);
      const expected = data.flatMap((bytes) => [
        ...encodePData(3, command, true, 0),
        ...encodePData(3, bytes, false, max),
      ]);
      expect(encodePDataBatch(3, parts, max)).toEqual(Buffer.concat(expected));
    }
    // A command set longer than the peer's limit stays one PDV.
    const long = encodePDataBatch(3, [{ command: true, bytes: Buffer.alloc(40, 2) }], 16);
    expect(decodePData(long.subarray(6))).toEqual([
      { contextId: 3, command: true, last: true, data: Buffer.alloc(40, 2) },
    ]);
  });
});

describe('DIMSE command sets', () => {
  it('requests (N-SET, C-CANCEL) and a response with a data set round-trip through the decoder', () => {
    const set = decodeCommand(
      encodeRequest({
        commandField: COMMAND.nSetRq,
        messageId: 9,
        hasDataset: true,
        requestedSopClassUid: '1.2.840.10008.3.1.2.3.3',
        requestedSopInstanceUid: '1.2.3',
      }),
    );
    expect(commandUs(set, TAG.commandField)).toBe(0x0120);
    expect(commandUs(set, TAG.messageId)).toBe(9);
    expect(commandUs(set, TAG.commandDataSetType)).not.toBe(NO_DATASET);
    expect(commandUid(set, TAG.requestedSopClassUid)).toBe('1.2.840.10008.3.1.2.3.3');
    expect(commandUid(set, TAG.requestedSopInstanceUid)).toBe('1.2.3');
    expect([...set.keys()]).toEqual([...set.keys()].sort((a, b) => a - b));
    const cancel = decodeCommand(
      encodeRequest({ commandField: COMMAND.cancelRq, messageId: 10, hasDataset: false, messageIdBeingRespondedTo: 9 }),
    );
    expect(commandUs(cancel, TAG.messageIdBeingRespondedTo)).toBe(9);
    expect(cancel.has(TAG.messageId)).toBe(false);
    const pending = decodeCommand(
      encodeResponse({ commandField: 0x8020, messageId: 9, status: 0xff00, hasDataset: true, errorComment: 'x' }),
    );
    expect(commandUs(pending, TAG.commandDataSetType)).not.toBe(NO_DATASET);
    expect(pending.get(TAG.errorComment)!.toString('latin1')).toBe('x ');
  });

  it('a C-STORE-RSP round-trips through the decoder with its group length first', () => {
    const rsp = encodeResponse({
      commandField: 0x8001,
      messageId: 7,
      status: 0xa900,
      sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
      sopInstanceUid: '1.2.3.45',
    });
    const cmd = decodeCommand(rsp);
    const groupLength = cmd.get(0)!.readUInt32LE(0);
    expect(groupLength).toBe(rsp.length - 12);
    expect(commandUs(cmd, TAG.commandField)).toBe(0x8001);
    expect(commandUs(cmd, TAG.messageIdBeingRespondedTo)).toBe(7);
    expect(commandUs(cmd, TAG.commandDataSetType)).toBe(NO_DATASET);
    expect(commandUs(cmd, TAG.status)).toBe(0xa900);
    expect(commandUid(cmd, TAG.affectedSopClassUid)).toBe('1.2.840.10008.5.1.4.1.1.2');
    // Odd-length UIDs are padded with one NUL to an even length.
    expect(cmd.get(TAG.affectedSopInstanceUid)!.length).toBe(8);
    expect(commandUid(cmd, TAG.affectedSopInstanceUid)).toBe('1.2.3.45');
  });

  it('reads a C-ECHO-RQ and refuses elements outside group 0000 or overrunning values', () => {
    const el = (group: number, elem: number, value: Buffer) => {
      const h = Buffer.alloc(8);
      h.writeUInt16LE(group, 0);
      h.writeUInt16LE(elem, 2);
      h.writeUInt32LE(value.length, 4);
      return Buffer.concat([h, value]);
    };
    const us = (n: number) => Buffer.from([n & 0xff, n >> 8]);
    const echo = Buffer.concat([
      el(0, 0x0100, us(COMMAND.cEchoRq)),
      el(0, 0x0110, us(42)),
      el(0, 0x0800, us(NO_DATASET)),
    ]);
    const cmd = decodeCommand(echo);
    expect(commandUs(cmd, TAG.commandField)).toBe(COMMAND.cEchoRq);
    expect(commandUs(cmd, TAG.messageId)).toBe(42);
    expect(() => decodeCommand(el(8, 0x0016, text('1.2')))).toThrow(/group 0000/);
    expect(() => decodeCommand(echo.subarray(0, echo.length - 1))).toThrow(UlError);
  });
});
