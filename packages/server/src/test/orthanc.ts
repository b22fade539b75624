/**
 * Debian's Orthanc (with its DICOMweb plugin) as a peer archive for tests: fresh storage in a temp
 * dir, free ports, accepting C-STORE from anyone on the loopback, its REST API for checking what
 * arrived. scripts/install-test-deps.sh installs it (orthanc, orthanc-dicomweb).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const ORTHANC_BIN = '/usr/sbin/Orthanc';
/** Where Debian's orthanc-dicomweb puts the plugin (`dpkg -L orthanc-dicomweb`). */
export const ORTHANC_DICOMWEB_PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export interface TestOrthanc {
  aet: string;
  dicomPort: number;
  http: string;
  /** GET of its REST API, as JSON */
  get<T>(route: string): Promise<T>;
  /** POST to its REST API (a JSON or binary body), the answer as JSON */
  post<T>(route: string, body: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** A DICOMweb server Orthanc's DICOMweb plugin may use as a client (its DicomWeb.Servers entry). */
export interface DicomWebPeer {
  /** the server's DICOMweb root, e.g. http://127.0.0.1:8080/dicom-web */
  url: string;
  /** sent with every request, e.g. an Authorization header */
  headers?: Record<string, string>;
}

export interface OrthancOptions {
  /**
   * Loads the DICOMweb plugin, with these servers (by name) it may query, retrieve from and store
   * to through /dicom-web/servers/{name}/…; its own DICOMweb server is at /dicom-web/.
   */
  dicomWebServers?: Record<string, DicomWebPeer>;
}

/**
 * `modalities`: the peers Orthanc may send to (its DicomModalities, by name: [AE title, host, port]);
 * `options`: the DICOMweb plugin and the servers it knows.
 */
export async function startOrthanc(
  aet = 'ARCHIVE',
  modalities: Record<string, [string, string, number]> = {},
  options: OrthancOptions = {},
): Promise<TestOrthanc> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-orthanc-'));
  const [dicomPort, httpPort] = [await freePort(), await freePort()];
  const config = {
    Name: 'yyp-test',
    StorageDirectory: path.join(dir, 'storage'),
    IndexDirectory: path.join(dir, 'index'),
    HttpPort: httpPort,
    DicomPort: dicomPort,
    DicomAet: aet,
    RemoteAccessAllowed: false,
    AuthenticationEnabled: false,
    DicomAlwaysAllowStore: true,
    DicomAlwaysAllowEcho: true,
    SaveJobs: false,
    DicomModalities: modalities,
    ...(options.dicomWebServers
      ? {
          Plugins: [ORTHANC_DICOMWEB_PLUGIN],
          DicomWeb: {
            Enable: true,
            Root: '/dicom-web/',
            Servers: Object.fromEntries(
              Object.entries(options.dicomWebServers).map(([name, peer]) => [
                name,
                { Url: peer.url, HttpHeaders: peer.headers ?? {} },
              ]),
            ),
          },
        }
      : {}),
  };
  fs.writeFileSync(path.join(dir, 'orthanc.json'), JSON.stringify(config));
  const log = fs.openSync(path.join(dir, 'orthanc.log'), 'a');
  const child = spawn(ORTHANC_BIN, ['--no-jobs', path.join(dir, 'orthanc.json')], {
    stdio: ['ignore', log, log],
    env: { ...process.env, TCP_NODELAY: '1' },
  });
  fs.closeSync(log);
  const http = `http://127.0.0.1:${httpPort}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${http}/system`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 150 || child.exitCode !== null) {
      const text = fs.existsSync(path.join(dir, 'orthanc.log'))
        ? fs.readFileSync(path.join(dir, 'orthanc.log'), 'utf8')
        : '';
      await stop();
      throw new Error(`Orthanc did not start: ${text.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    aet,
    dicomPort,
    http,
    get: async <T>(route: string) => (await (await fetch(`${http}${route}`)).json()) as T,
    post: async <T>(route: string, body: unknown) => {
      const res = await fetch(`${http}${route}`, {
        method: 'POST',
        body: Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`Orthanc ${route}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    stop,
  };
}
