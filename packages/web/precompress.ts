import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Logger, Plugin } from 'vite';

/**
 * After `vite build` (issue 20 item 15):
 *
 * - Source maps leave the served folder: every *.map under dist moves to dist-maps (same relative
 *   paths), kept for reading error reports' stack traces. The bundles carry no sourceMappingURL
 *   comment (build.sourcemap 'hidden'), and the server answers 404 for *.map.
 * - Each compressible file (scripts, styles, WebAssembly, SVG, JSON…) of at least MIN_BYTES gets
 *   a .br (brotli, best quality) and a .gz (gzip -9) beside it, kept only when smaller; the server
 *   sends the one the browser's Accept-Encoding allows (@fastify/static preCompressed). index.html
 *   is left out: the server fills a nonce into it per answer and compresses that on the fly.
 */

const COMPRESSIBLE = /\.(js|mjs|cjs|css|wasm|svg|json|txt|xml|html)$/;
/** Smaller files are sent as they are (a compressed copy saves less than a packet). */
export const MIN_BYTES = 1024;
/** How many files are compressed at once (zlib runs them on the libuv thread pool). */
const PARALLEL = 4;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Moves every *.map under `dist` to the same place under `mapsDir` (emptied first). */
export async function moveSourceMaps(dist: string, mapsDir: string): Promise<number> {
  await fs.rm(mapsDir, { recursive: true, force: true });
  const maps = (await filesUnder(dist)).filter((f) => f.endsWith('.map'));
  for (const file of maps) {
    const target = path.join(mapsDir, path.relative(dist, file));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(file, target);
  }
  await fs.mkdir(mapsDir, { recursive: true });
  // Build output, like dist: never committed.
  await fs.writeFile(path.join(mapsDir, '.gitignore'), '*\n');
  return maps.length;
}

export interface PrecompressTotals {
  files: number;
  bytes: number;
  br: number;
  gzip: number;
}

/** Writes x.br and x.gz beside each compressible file x of `dist` (not its root index.html). */
export async function precompressDir(dist: string, minBytes = MIN_BYTES): Promise<PrecompressTotals> {
  const candidates = (await filesUnder(dist)).filter(
    (f) => COMPRESSIBLE.test(f) && path.relative(dist, f) !== 'index.html',
  );
  const totals: PrecompressTotals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  const one = async (file: string) => {
    const body = await fs.readFile(file);
    if (body.length < minBytes) return;
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          [zlib.constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm')
            ? zlib.constants.BROTLI_MODE_GENERIC
            : zlib.constants.BROTLI_MODE_TEXT,
        },
      }),
      gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    totals.files++;
    totals.bytes += body.length;
    // A copy no smaller than the file is not worth a stat and a Content-Encoding.
    if (br.length < body.length) {
      await fs.writeFile(`${file}.br`, br);
      totals.br += br.length;
    } else totals.br += body.length;
    if (gz.length < body.length) {
      await fs.writeFile(`${file}.gz`, gz);
      totals.gzip += gz.length;
    } else totals.gzip += body.length;
  };
  const queue = [...candidates];
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) await one(file);
    }),
  );
  return totals;
}

/** The Vite plugin: source maps out of dist, then .br and .gz copies, once the build is written. */
export function precompress(options: { mapsDir: string }): Plugin {
  let outDir = '';
  let logger: Logger | undefined;
  return {
    name: 'yyp-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle() {
      const maps = await moveSourceMaps(outDir, options.mapsDir);
      const t = await precompressDir(outDir);
      const mb = (n: number) => (n / 1e6).toFixed(2);
      logger?.info(
        `${maps} source maps moved to ${path.relative(process.cwd(), options.mapsDir) || '.'}; ` +
          `${t.files} files (${mb(t.bytes)} MB) precompressed: brotli ${mb(t.br)} MB, gzip ${mb(t.gzip)} MB`,
      );
    },
  };
}
