import dicomweb from 'dicomweb-client';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkDataValue, frameBytes } from '../../dicom/json-model.js';
import { generateStudy, type GeneratedInstance, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { generatePdf, samplePdf } from '../../dicom/testdata/objects.js';
import { DatasetBuilder, EXPLICIT_VR_LE, encodePart10, tag } from '../../dicom/testdata/writer.js';
import { newUid } from '../../dicom/testdata/uid.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';
import { injectStow } from '../../test/stow.js';

/**
 * yyp's DICOMweb read and written by a client nobody here wrote (issue 28 item 8): dicomweb-client,
 * the DCMJS project's client that OHIF uses, over HTTP on a loopback port. It is a browser library
 * built on XMLHttpRequest; in Node it is given jsdom's, a maintained implementation of the WHATWG
 * XMLHttpRequest (binary answers, response headers, same-origin rules as a browser applies them),
 * installed for the web tests already. Every answer it parses is compared with the stored source.
 */
type Json = Record<string, { vr: string; Value?: unknown[]; BulkDataURI?: string; InlineBinary?: string }>;

let t: TestApp;
let client: Client;
let base: string;
let tech: string;
let dom: JSDOM;
let ct: GeneratedStudy;
let us: GeneratedStudy;
let pdf: GeneratedInstance;
let withIcon: GeneratedInstance;
const pdfBytes = samplePdf(`A report long enough to be bulk data ${'x'.repeat(2000)}`);
/** The files of this tier share a worker: the global this test sets is put back as it was. */
const globals = globalThis as { XMLHttpRequest?: unknown };
const hadXhr = 'XMLHttpRequest' in globals;
const previousXhr = globals.XMLHttpRequest;

const bytes = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b));
const uidOf = (json: Json, tag: string) => json[tag]?.Value?.[0] as string;
const sorted = (list: Json[]) => [...list].sort((a, b) => uidOf(a, '00080018').localeCompare(uidOf(b, '00080018')));
/**
 * The calls this test makes, with the options the client documents as optional left optional (its
 * published .d.ts, generated from JSDoc, marks them all required).
 */
type Instance = { studyInstanceUID: string; seriesInstanceUID: string; sopInstanceUID: string };
interface Client {
  searchForStudies(o: { queryParams?: Record<string, string> }): Promise<unknown>;
  searchForSeries(o: { studyInstanceUID: string }): Promise<unknown>;
  searchForInstances(o: { studyInstanceUID: string }): Promise<unknown>;
  retrieveStudy(o: { studyInstanceUID: string }): Promise<unknown>;
  retrieveSeries(o: { studyInstanceUID: string; seriesInstanceUID: string }): Promise<unknown>;
  retrieveInstance(o: Instance): Promise<unknown>;
  retrieveStudyMetadata(o: { studyInstanceUID: string }): Promise<unknown>;
  retrieveSeriesMetadata(o: { studyInstanceUID: string; seriesInstanceUID: string }): Promise<unknown>;
  retrieveInstanceMetadata(o: Instance): Promise<unknown>;
  retrieveInstanceFrames(o: Instance & { frameNumbers: number[] }): Promise<unknown>;
  retrieveBulkData(o: { BulkDataURI: string }): Promise<unknown>;
  storeInstances(o: { datasets: ArrayBuffer[] }): Promise<unknown>;
}
const DICOMwebClient = dicomweb.api.DICOMwebClient as unknown as new (options: {
  url: string;
  headers: Record<string, string>;
  verbose: boolean;
}) => Client;

/** The first part's headers, as the client reads them (it gives every part the first one's). */
const firstPartHeader = (parts: ArrayBuffer[], name: string) =>
  (parts[0] as ArrayBuffer & { headers: Map<string, string[]> }).headers.get(name)?.[0];

/** A secondary capture carrying an icon (Icon Image Sequence): a binary value inside an item. */
function iconInstance(studyInstanceUid: string, patientId: string): GeneratedInstance {
  const sopClassUid = '1.2.840.10008.5.1.4.1.1.7';
  const sopInstanceUid = newUid();
  const seriesInstanceUid = newUid();
  const icon = new DatasetBuilder()
    .uint16(tag(0x0028, 0x0002), 1)
    .text(tag(0x0028, 0x0004), 'CS', 'MONOCHROME2')
    .uint16(tag(0x0028, 0x0010), 48)
    .uint16(tag(0x0028, 0x0011), 48)
    .uint16(tag(0x0028, 0x0100), 8)
    .uint16(tag(0x0028, 0x0101), 8)
    .uint16(tag(0x0028, 0x0102), 7)
    .uint16(tag(0x0028, 0x0103), 0)
    .bytes(tag(0x7fe0, 0x0010), 'OB', Buffer.from(Array.from({ length: 48 * 48 }, (_, k) => k % 251)));
  const ds = new DatasetBuilder()
    .text(tag(0x0008, 0x0016), 'UI', sopClassUid)
    .text(tag(0x0008, 0x0018), 'UI', sopInstanceUid)
    .text(tag(0x0008, 0x0060), 'CS', 'OT')
    .text(tag(0x0010, 0x0010), 'PN', 'DOE^JANE')
    .text(tag(0x0010, 0x0020), 'LO', patientId)
    .text(tag(0x0020, 0x000d), 'UI', studyInstanceUid)
    .text(tag(0x0020, 0x000e), 'UI', seriesInstanceUid)
    .integerString(tag(0x0020, 0x0011), 91)
    .integerString(tag(0x0020, 0x0013), 1)
    .sequence(tag(0x0088, 0x0200), [icon]);
  const bytes = encodePart10({ sopClassUid, sopInstanceUid, transferSyntax: EXPLICIT_VR_LE, dataset: ds });
  return {
    fileName: `${sopInstanceUid}.dcm`,
    bytes,
    sopInstanceUid,
    sopClassUid,
    seriesInstanceUid,
    seriesNumber: 91,
    instanceNumber: 1,
  };
}

const ids = (i: GeneratedInstance) => ({
  studyInstanceUID: ct.instances.includes(i) ? ct.studyInstanceUid : us.studyInstanceUid,
  seriesInstanceUID: i.seriesInstanceUid,
  sopInstanceUID: i.sopInstanceUid,
});

beforeAll(async () => {
  const world = await startArchiveApp();
  t = world.t;
  tech = world.rad.tech.token;
  ct = generateStudy({ modality: 'CT', series: 2, instancesPerSeries: 2, rows: 16, columns: 20, patientId: 'DWC-CT' });
  us = generateStudy({ modality: 'US', rows: 12, columns: 16, frames: 4, patientId: 'DWC-US' });
  pdf = generatePdf({ studyInstanceUid: us.studyInstanceUid, patientId: 'DWC-US' }, pdfBytes);
  withIcon = iconInstance(us.studyInstanceUid, 'DWC-US');
  for (const files of [ct.instances, [...us.instances, pdf, withIcon]]) {
    const res = await injectStow(
      t,
      tech,
      files.map((i) => i.bytes),
    );
    expect(res.statusCode).toBe(200);
  }
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  // The page the client runs in is served by yyp's origin, as a viewer on yyp's own domain is.
  dom = new JSDOM('', { url: `${base}/` });
  globals.XMLHttpRequest = dom.window.XMLHttpRequest;
  client = new DICOMwebClient({
    url: `${base}/dicom-web`,
    headers: { Authorization: `Bearer ${tech}` },
    verbose: false,
  });
});

afterAll(async () => {
  if (hadXhr) globals.XMLHttpRequest = previousXhr;
  else delete globals.XMLHttpRequest;
  dom?.window.close();
  await t?.close();
});

describe('dicomweb-client (npm) against yyp', () => {
  it('searches studies, series and instances (QIDO-RS)', async () => {
    const studies = (await client.searchForStudies({ queryParams: { PatientID: 'DWC-CT' } })) as Json[];
    expect(studies.map((s) => uidOf(s, '0020000D'))).toEqual([ct.studyInstanceUid]);
    expect(studies[0]!['00201208']?.Value).toEqual([4]);
    const series = (await client.searchForSeries({ studyInstanceUID: ct.studyInstanceUid })) as Json[];
    expect(series.map((s) => uidOf(s, '0020000E')).sort()).toEqual(
      [...new Set(ct.instances.map((i) => i.seriesInstanceUid))].sort(),
    );
    const found = (await client.searchForInstances({
      studyInstanceUID: us.studyInstanceUid,
    })) as Json[];
    expect(found.map((i) => uidOf(i, '00080018')).sort()).toEqual(
      [...us.instances, pdf, withIcon].map((i) => i.sopInstanceUid).sort(),
    );
    // An empty answer (204) is an empty list to the client.
    expect(await client.searchForStudies({ queryParams: { PatientID: 'NOBODY' } })).toEqual([]);
  });

  it('retrieves a study, a series and an instance as multipart application/dicom, byte for byte', async () => {
    const study = (await client.retrieveStudy({ studyInstanceUID: ct.studyInstanceUid })) as ArrayBuffer[];
    expect(study.map((b) => bytes(b).toString('base64')).sort()).toEqual(
      ct.instances.map((i) => i.bytes.toString('base64')).sort(),
    );
    const first = ct.instances[0]!;
    const series = (await client.retrieveSeries({
      studyInstanceUID: ct.studyInstanceUid,
      seriesInstanceUID: first.seriesInstanceUid,
    })) as ArrayBuffer[];
    expect(series.map((b) => bytes(b).toString('base64')).sort()).toEqual(
      ct.instances
        .filter((i) => i.seriesInstanceUid === first.seriesInstanceUid)
        .map((i) => i.bytes.toString('base64'))
        .sort(),
    );
    const one = (await client.retrieveInstance(ids(pdf))) as ArrayBuffer;
    expect(bytes(one).equals(pdf.bytes)).toBe(true);
    // Each part names the instance it holds (PS3.18 8.6; RFC 2616 3.7.2).
    expect(firstPartHeader([one], 'content-location')).toBe(
      `${base}/dicom-web/studies/${us.studyInstanceUid}/series/${pdf.seriesInstanceUid}/instances/${pdf.sopInstanceUid}`,
    );
    expect(firstPartHeader([one], 'content-type')).toBe('application/dicom');
  });

  it('retrieves study and series metadata (DICOM JSON)', async () => {
    const study = sorted((await client.retrieveStudyMetadata({ studyInstanceUID: ct.studyInstanceUid })) as Json[]);
    expect(study.map((m) => uidOf(m, '00080018'))).toEqual(ct.instances.map((i) => i.sopInstanceUid).sort());
    expect(study[0]!['00100020']?.Value).toEqual(['DWC-CT']);
    const first = us.instances[0]!;
    const series = (await client.retrieveSeriesMetadata({
      studyInstanceUID: us.studyInstanceUid,
      seriesInstanceUID: first.seriesInstanceUid,
    })) as Json[];
    expect(series.map((m) => uidOf(m, '00080018'))).toEqual([first.sopInstanceUid]);
    expect(series[0]!['00280008']?.Value).toEqual([4]);
  });

  it('retrieves frames of a multi-frame instance, each the pixel data of that frame', async () => {
    const us1 = us.instances[0]!;
    const frames = (await client.retrieveInstanceFrames({ ...ids(us1), frameNumbers: [1, 3, 4] })) as ArrayBuffer[];
    expect(frames).toHaveLength(3);
    [1, 3, 4].forEach((n, k) => {
      expect(bytes(frames[k]!).equals(Buffer.from(frameBytes(us1.bytes, n).bytes))).toBe(true);
    });
    expect(firstPartHeader(frames, 'content-location')).toBe(
      `${base}/dicom-web/studies/${us.studyInstanceUid}/series/${us1.seriesInstanceUid}/instances/${us1.sopInstanceUid}/frames/1`,
    );
    expect((frames[0] as ArrayBuffer & { transferSyntaxUID: string }).transferSyntaxUID).toBe('1.2.840.10008.1.2.1');
    const single = (await client.retrieveInstanceFrames({
      ...ids(ct.instances[1]!),
      frameNumbers: [1],
    })) as ArrayBuffer[];
    expect(bytes(single[0]!).equals(Buffer.from(frameBytes(ct.instances[1]!.bytes, 1).bytes))).toBe(true);
  });

  it('retrieves bulk data through the BulkDataURI the metadata gives: pixel data and an encapsulated PDF', async () => {
    const [meta] = (await client.retrieveInstanceMetadata(ids(pdf))) as Json[];
    const uri = meta!['00420011']?.BulkDataURI;
    expect(uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dicom-web\/studies\//);
    const [document] = (await client.retrieveBulkData({ BulkDataURI: uri! })) as ArrayBuffer[];
    // The value as stored: the PDF padded to even length.
    expect(bytes(document!).subarray(0, pdfBytes.length).equals(pdfBytes)).toBe(true);
    expect(bytes(document!).equals(Buffer.from(bulkDataValue(pdf.bytes, '00420011')!))).toBe(true);
    expect(firstPartHeader([document!], 'content-location')).toBe(uri);

    const us1 = us.instances[0]!;
    const [usMeta] = (await client.retrieveInstanceMetadata(ids(us1))) as Json[];
    const pixels = (await client.retrieveBulkData({ BulkDataURI: usMeta!['7FE00010']!.BulkDataURI! })) as ArrayBuffer[];
    expect(pixels).toHaveLength(1);
    expect(bytes(pixels[0]!).equals(Buffer.from(bulkDataValue(us1.bytes, '7FE00010')!))).toBe(true);
  });

  it("retrieves a value inside a sequence item through its BulkDataURI (an icon's pixel data)", async () => {
    const [meta] = (await client.retrieveInstanceMetadata(ids(withIcon))) as Json[];
    const [item] = meta!['00880200']!.Value as Json[];
    const uri = item!['7FE00010']!.BulkDataURI!;
    expect(uri).toMatch(/\/bulkdata\/00880200\.0\.7FE00010$/);
    const [icon] = (await client.retrieveBulkData({ BulkDataURI: uri })) as ArrayBuffer[];
    const expected = Buffer.from(Array.from({ length: 48 * 48 }, (_, k) => k % 251));
    expect(bytes(icon!).equals(expected)).toBe(true);
  });

  it('stores instances (STOW-RS) that are then served byte for byte', async () => {
    const mr = generateStudy({ modality: 'MR', instancesPerSeries: 2, rows: 8, columns: 8, patientId: 'DWC-STOW' });
    const answer = (await client.storeInstances({
      datasets: mr.instances.map((i) => new Uint8Array(i.bytes).buffer),
    })) as string;
    const stored = JSON.parse(answer) as Json;
    expect(stored['00081190']?.Value).toEqual([`${base}/dicom-web/studies/${mr.studyInstanceUid}`]);
    expect(stored['00081198']).toBeUndefined();
    const referenced = stored['00081199']?.Value as Json[];
    expect(referenced.map((r) => uidOf(r, '00081155')).sort()).toEqual(
      mr.instances.map((i) => i.sopInstanceUid).sort(),
    );
    // Each instance's Retrieve URL is one the client can read the instance back from.
    const url = uidOf(referenced[0]!, '00081190');
    const sop = uidOf(referenced[0]!, '00081155');
    const source = mr.instances.find((i) => i.sopInstanceUid === sop)!;
    expect(url).toBe(
      `${base}/dicom-web/studies/${mr.studyInstanceUid}/series/${source.seriesInstanceUid}/instances/${sop}`,
    );
    const back = (await client.retrieveStudy({ studyInstanceUID: mr.studyInstanceUid })) as ArrayBuffer[];
    expect(back.map((b) => bytes(b).toString('base64')).sort()).toEqual(
      mr.instances.map((i) => i.bytes.toString('base64')).sort(),
    );
  });
});
