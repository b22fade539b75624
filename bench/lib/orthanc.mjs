// Starts Debian's Orthanc (1.10) with the DICOMweb plugin as the side-by-side peer for the
// ingest benchmarks: fresh storage and index in a temp dir, free ports, no authentication,
// stopped and removed at cleanup.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { LOOPBACK, freePort, makeTempDir, onCleanup, removeTempDir, sleep, waitFor } from './util.mjs';

const ORTHANC = '/usr/sbin/Orthanc';

/**
 * Installs Debian's `orthanc` and `orthanc-dicomweb` when Orthanc is missing (benchmarks run as
 * root on a throwaway machine); the packages' own service is not started.
 */
export function ensureOrthancInstalled() {
  if (fs.existsSync(ORTHANC)) {
    try {
      findDicomWebPlugin();
      return;
    } catch {
      /* the plugin is missing: install it below */
    }
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'orthanc', 'orthanc-dicomweb'], {
      env,
      stdio: 'inherit',
    });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { env, stdio: 'inherit' });
    install();
  }
}
const FALLBACK_PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';

/** The DICOMweb plugin's .so as installed by the orthanc-dicomweb package. */
export function findDicomWebPlugin() {
  try {
    const files = execFileSync('dpkg', ['-L', 'orthanc-dicomweb'], { encoding: 'utf8' }).split('\n');
    // The package ships the versioned library in /usr/lib/orthanc and a plain .so link in plugins/.
    const so = files.find((f) => f.endsWith('/libOrthancDicomWeb.so')) ?? files.find((f) => /DicomWeb\.so/.test(f));
    if (so && fs.existsSync(so)) {
      return so;
    }
  } catch {
    /* dpkg missing or package not installed: try the usual path */
  }
  if (fs.existsSync(FALLBACK_PLUGIN)) {
    return FALLBACK_PLUGIN;
  }
  throw new Error('Orthanc DICOMweb plugin not found (apt-get install orthanc-dicomweb)');
}

/**
 * @typedef {object} DicomTarget  What the ingest helpers need to reach an archive.
 * @property {string} host
 * @property {number} dicomPort
 * @property {string} aet          called AE title
 * @property {string} callingAet   AE title the SCU must use
 * @property {string} dicomWebBase e.g. http://127.0.0.1:8042/dicom-web
 * @property {string} [token]      bearer token for DICOMweb, if the target needs one
 */

/**
 * @param {{ aet?: string, callingAet?: string, config?: object, env?: object, startTimeoutMs?: number }} [opts]
 *   `config` is merged over the defaults below (e.g. to tune StorageAccessOnFind); `env` over
 *   Orthanc's environment.
 * @returns {Promise<DicomTarget & { httpPort: number, httpBase: string, dicomWebRoot: string,
 *   version: string, logFile: string, stop: () => Promise<void> }>}
 */
export async function startOrthanc(opts = {}) {
  const aet = opts.aet ?? 'ORTHANC';
  const callingAet = opts.callingAet ?? 'BENCHSCU';
  const dir = makeTempDir('yyp-bench-orthanc-');
  const [dicomPort, httpPort] = [await freePort(), await freePort()];
  const dicomWebRoot = '/dicom-web/';
  const config = {
    Name: 'yyp-bench',
    StorageDirectory: path.join(dir, 'storage'),
    IndexDirectory: path.join(dir, 'index'),
    Plugins: [findDicomWebPlugin()],
    HttpPort: httpPort,
    DicomPort: dicomPort,
    DicomAet: aet,
    // Orthanc 1.10 has no bind-address option: both servers listen on every interface. The HTTP
    // side refuses non-loopback clients with RemoteAccessAllowed=false. For DICOM, instead of
    // DicomAlwaysAllowStore (anyone who can reach the port may store), the bench SCU is the only
    // registered modality and must come from 127.0.0.1 with its AE title.
    RemoteAccessAllowed: false,
    AuthenticationEnabled: false,
    DicomAlwaysAllowStore: false,
    DicomAlwaysAllowEcho: false,
    DicomCheckModalityHost: true,
    DicomModalities: { bench: { AET: callingAet, Host: LOOPBACK, Port: 104, AllowStore: true, AllowEcho: true } },
    // HTTP sockets only (CivetWeb); DICOM sockets get TCP_NODELAY from the env below.
    TcpNoDelay: true,
    KeepAlive: true,
    SaveJobs: false,
    DicomWeb: { Enable: true, Root: dicomWebRoot, EnableWado: false },
    ...opts.config,
  };
  const configFile = path.join(dir, 'orthanc.json');
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2));

  const logFile = path.join(dir, 'orthanc.log');
  const log = fs.openSync(logFile, 'a');
  // DCMTK (which Orthanc uses for DICOM) disables Nagle when TCP_NODELAY is set in the
  // environment; without it small C-STORE responses stall on delayed ACKs.
  const child = spawn(ORTHANC, ['--no-jobs', configFile], {
    env: { ...process.env, TCP_NODELAY: '1', ...opts.env },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const release = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const done = await Promise.race([exited, sleep(10_000).then(() => null)]);
      if (!done) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  });

  const httpBase = `http://${LOOPBACK}:${httpPort}`;
  let system;
  try {
    system = await Promise.race([
      waitFor(
        async () => {
          const res = await fetch(`${httpBase}/system`, { signal: AbortSignal.timeout(2000) });
          return res.ok ? res.json() : undefined;
        },
        { timeoutMs: opts.startTimeoutMs ?? 30_000, what: 'Orthanc /system' },
      ),
      exited.then(({ code, signal }) => {
        throw new Error(`Orthanc exited during start (code ${code}, signal ${signal})`);
      }),
    ]);
  } catch (err) {
    await release();
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : '';
    await removeTempDir(dir);
    throw new Error(`${err.message}\n--- orthanc.log ---\n${tail}`, { cause: err });
  }

  return {
    host: LOOPBACK,
    dicomPort,
    httpPort,
    aet,
    callingAet,
    httpBase,
    dicomWebRoot,
    dicomWebBase: httpBase + dicomWebRoot.replace(/\/$/, ''),
    version: system.Version,
    logFile,
    /** Stops Orthanc and deletes its storage, so the next scenario starts empty. */
    stop: async () => {
      await release();
      await removeTempDir(dir);
    },
  };
}

/** Instances Orthanc has indexed, to check that a run stored what it sent. */
export async function orthancInstanceCount(orthanc) {
  const res = await fetch(`${orthanc.httpBase}/statistics`);
  if (!res.ok) {
    throw new Error(`Orthanc /statistics answered ${res.status}`);
  }
  return (await res.json()).CountInstances;
}
