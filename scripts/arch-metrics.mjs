#!/usr/bin/env node
// Counts what docs/architecture.md forbids or discourages, for a before/after picture of a
// restructuring (issue 21 "Measure and report"). The lint (eslint.config.js, rules/boundaries)
// is what enforces the arrows; this script only counts, and always exits 0.
//   node scripts/arch-metrics.mjs          # a table
//   node scripts/arch-metrics.mjs --list   # with every offending import
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const list = process.argv.includes('--list');

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const isTest = (f) => /\.(test|fixture)\.tsx?$/.test(f) || /\/src\/test\//.test(f);
const rel = (f) => path.relative(root, f);

/** Every import/export-from of a file: { spec, typeOnly, names } */
function importsOf(file) {
  const src = fs.readFileSync(file, 'utf8');
  const out = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/g;
  let m;
  while ((m = re.exec(src))) {
    const clause = m[3];
    const names = (clause.match(/\{([^}]*)\}/)?.[1] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const typeOnly =
      Boolean(m[2]) || (names.length > 0 && names.every((n) => n.startsWith('type ')) && !/^\w/.test(clause));
    out.push({ spec: m[4], typeOnly });
  }
  for (const d of src.matchAll(/import\(\s*'([^']+)'\s*\)/g)) out.push({ spec: d[1], typeOnly: false });
  return out;
}

function resolve(file, spec) {
  if (!spec.startsWith('.')) return null;
  return path.resolve(path.dirname(file), spec).replace(/\.js$/, '');
}

const server = path.join(root, 'packages/server/src');
const web = path.join(root, 'packages/web/src');
const moduleOf = (f) => (f.startsWith(server + '/modules/') ? f.slice(server.length + 9).split('/')[0] : null);
const featureOf = (f) => (f.startsWith(web + '/features/') ? f.slice(web.length + 10).split('/')[0] : null);

const found = {
  crossModuleStore: [],
  crossModuleNotFace: [],
  routeImportsStore: [],
  sqlOutsideStores: [],
  platformImportsModule: [],
  featureToFeature: [],
  featureToApp: [],
  uiToFeatureOrApp: [],
};

for (const f of walk(server)) {
  const m = moduleOf(f);
  for (const { spec, typeOnly } of importsOf(f)) {
    const t = resolve(f, spec);
    const tm = t && moduleOf(t);
    const where = `${rel(f)} → ${spec}`;
    // The seed and the server's test support are data builders: they may reach stores (lint alike).
    const builder = /\/src\/(seed|test)\//.test(f) || /\.fixture\.ts$/.test(f);
    if (tm && m !== tm && !builder) {
      if (/\.store$/.test(t)) found.crossModuleStore.push(where);
      if (!t.endsWith(`/modules/${tm}/index`)) found.crossModuleNotFace.push(where);
    }
    if (/\.routes\.ts$/.test(f) && t && /\.store$/.test(t)) found.routeImportsStore.push(where);
    if (f.startsWith(server + '/platform/') && tm) found.platformImportsModule.push(where);
    const dbLayer = spec.startsWith('drizzle-orm') || (t && t.endsWith('/db/schema'));
    if (dbLayer && !typeOnly && m && !isTest(f) && !/\.store\.ts$/.test(f)) found.sqlOutsideStores.push(where);
  }
}

for (const f of walk(web)) {
  const feat = featureOf(f);
  for (const { spec } of importsOf(f)) {
    const t = resolve(f, spec);
    if (!t) continue;
    const tf = featureOf(t);
    const where = `${rel(f)} → ${spec}`;
    if (feat && tf && tf !== feat) found.featureToFeature.push(where);
    if (feat && t.startsWith(web + '/app/')) found.featureToApp.push(where);
    if (f.startsWith(web + '/ui/') && (tf || t.startsWith(web + '/app/'))) found.uiToFeatureOrApp.push(where);
  }
}

const long = [];
for (const f of [...walk(path.join(root, 'packages')), ...walk(path.join(root, 'e2e'))]) {
  const n = fs.readFileSync(f, 'utf8').split('\n').length;
  if (n > 400) long.push(`${rel(f)} (${n})`);
}

const rows = {
  'cross-module store imports (seed and test support aside)': found.crossModuleStore,
  'cross-module imports not through the face': found.crossModuleNotFace,
  'route files importing a store': found.routeImportsStore,
  'module files building SQL outside a store': [...new Set(found.sqlOutsideStores.map((w) => w.split(' → ')[0]))],
  'platform imports of a module': found.platformImportsModule,
  'web feature → another feature imports': found.featureToFeature,
  'web feature → app/ imports': found.featureToApp,
  'web ui/ → feature or app/ imports': found.uiToFeatureOrApp,
  'files over 400 lines': long,
};
console.log('  all  tests  what');
for (const [k, v] of Object.entries(rows)) {
  const inTests = v.filter((w) => isTest(w.split(' ')[0])).length;
  console.log(`${String(v.length).padStart(5)}  ${String(inTests).padStart(5)}  ${k}`);
  if (list) for (const w of v) console.log(`         ${w}`);
}
