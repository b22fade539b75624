// yyp/boundaries: the arrows between the parts of the code (docs/architecture.md "Parts and
// arrows"). The table of parts and the rules are here; eslint.config.js switches them on. The
// `pending` option lists, per rule, files that may still break it while a restructuring is under way;
// it can only shrink (a listed file that no longer breaks its rule is reported). Nothing uses it now.
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SERVER = 'packages/server/src/';
const WEB = 'packages/web/src/';

/** Test code: test files, fixtures, the server's test support and the web's test setup. */
export function isTestCode(rel) {
  return (
    /\.test\.tsx?$/.test(rel) ||
    /\.fixture\.tsx?$/.test(rel) ||
    rel.startsWith(`${SERVER}test/`) ||
    rel.startsWith(`${WEB}test/`)
  );
}

/** The part a repository-relative path belongs to: { kind, name? }. */
export function partOf(rel) {
  if (rel.startsWith('packages/contracts/')) return { kind: 'contracts' };
  if (rel.startsWith(SERVER)) {
    const inner = rel.slice(SERVER.length);
    const [first, second] = inner.split('/');
    if (first === 'modules' && second) return { kind: 'module', name: second };
    if (['platform', 'db', 'dicom', 'seed', 'test'].includes(first) && second) return { kind: first };
    return { kind: 'server-root' }; // app.ts, main.ts, cli: the composition root
  }
  if (rel.startsWith('packages/server/')) return { kind: 'server-other' };
  if (rel.startsWith(WEB)) {
    const inner = rel.slice(WEB.length);
    const [first, second] = inner.split('/');
    if (first === 'features' && second) return { kind: 'feature', name: second };
    if (first === 'app' && second) return { kind: 'app' };
    if (first === 'ui' && second) return { kind: 'ui' };
    return { kind: 'web-shared', name: first };
  }
  if (rel.startsWith('packages/web/')) return { kind: 'web-other' };
  return { kind: 'other' };
}

const isStore = (rel) => /\.store(\.ts)?$/.test(rel.replace(/\.js$/, ''));
const isFace = (rel, name) => new RegExp(`^${SERVER}modules/${name}/index(\\.ts)?$`).test(rel.replace(/\.js$/, ''));
const isDbLayer = (spec, targetRel) =>
  spec === 'drizzle-orm' ||
  spec.startsWith('drizzle-orm/') ||
  /^packages\/server\/src\/db\/schema/.test(targetRel ?? '');

/** The rules; each returns a message when the import breaks it. */
export const RULES = {
  'contracts-alone': ({ from, to, spec }) =>
    from.kind === 'contracts' &&
    (/^@yyp\/(server|web)/.test(spec) ||
      ['module', 'platform', 'feature', 'app', 'ui', 'web-shared'].includes(to?.kind))
      ? 'contracts import nothing of the server or the web'
      : null,
  'web-not-server': ({ fromRel, toRel, spec }) =>
    fromRel.startsWith('packages/web/') && (spec.startsWith('@yyp/server') || toRel?.startsWith('packages/server/'))
      ? 'the web never imports the server: share through @yyp/contracts'
      : null,
  'server-not-web': ({ fromRel, toRel, spec, test }) =>
    fromRel.startsWith('packages/server/') &&
    !test && // a test may check the web build's output (platform/compression.int.test.ts)
    (spec.startsWith('@yyp/web') || toRel?.startsWith('packages/web/'))
      ? 'the server never imports the web'
      : null,
  'platform-no-module': ({ from, to, test }) =>
    from.kind === 'platform' && ['module', 'seed'].includes(to?.kind) && !test
      ? 'platform/ imports no module: pass what it needs in (see platform/audit.ts setOperationAuditGate)'
      : null,
  'dicom-no-module': ({ from, to }) =>
    from.kind === 'dicom' && ['module', 'seed'].includes(to?.kind)
      ? 'dicom/ (the DICOM toolkit and network services) imports no module: app.ts hands it what it needs'
      : null,
  'module-face': ({ from, to, toRel, test }) => {
    if (to?.kind !== 'module') return null;
    if (from.kind === 'module' && from.name === to.name) return null;
    if (['seed', 'test'].includes(from.kind)) return null; // data builders (see docs/architecture.md)
    if (isFace(toRel, to.name)) return null;
    if (test && /\.fixture(\.ts)?$/.test(toRel.replace(/\.js$/, ''))) return null;
    return `another module is used only through its face: import from 'modules/${to.name}/index.js'`;
  },
  'module-no-test-code': ({ from, to, test }) =>
    !test &&
    ((['module', 'platform', 'dicom'].includes(from.kind) && ['seed', 'test'].includes(to?.kind)) ||
      (from.kind === 'server-root' && to?.kind === 'test'))
      ? 'running code imports neither the seed nor test support (only main.ts and the CLI seed the demo)'
      : null,
  'routes-no-store': ({ fromRel, toRel }) =>
    /\.routes\.ts$/.test(fromRel) && toRel && isStore(toRel)
      ? "a route file reaches no store: name the owner through the module's face (ownership look-ups)"
      : null,
  'sql-in-stores': ({ from, fromRel, spec, toRel, typeOnly, test }) =>
    from.kind === 'module' && !test && !typeOnly && !isStore(fromRel) && isDbLayer(spec, toRel)
      ? 'SQL lives in stores: only *.store.ts files import drizzle-orm or db/schema (type imports aside)'
      : null,
  'feature-alone': ({ from, to }) =>
    from.kind === 'feature' && ((to?.kind === 'feature' && to.name !== from.name) || to?.kind === 'app')
      ? 'a web feature imports shared code (ui/, api/, shared/, i18n/) and its own files, never another feature or app/'
      : null,
  'ui-alone': ({ from, to }) =>
    from.kind === 'ui' && ['feature', 'app'].includes(to?.kind) ? 'ui/ imports no feature and not app/' : null,
};

export default {
  meta: {
    type: 'problem',
    docs: { description: 'The arrows between the parts of yyp (docs/architecture.md)' },
    schema: [
      {
        type: 'object',
        properties: {
          rules: { type: 'array', items: { enum: Object.keys(RULES) } },
          pending: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const options = context.options[0] ?? {};
    const active = options.rules ?? Object.keys(RULES);
    const fromRel = path.relative(root, context.filename).split(path.sep).join('/');
    const from = partOf(fromRel);
    const test = isTestCode(fromRel);
    const pendingFor = new Set(
      Object.entries(options.pending ?? {})
        .filter(([, files]) => files.includes(fromRel))
        .map(([rule]) => rule),
    );
    const broken = new Set();

    function check(node, spec, typeOnly) {
      if (typeof spec !== 'string') return;
      let toRel = null;
      if (spec.startsWith('.')) {
        const abs = path.resolve(path.dirname(context.filename), spec);
        toRel = path.relative(root, abs).split(path.sep).join('/').replace(/\.js$/, '');
      }
      const to = toRel ? partOf(toRel) : null;
      for (const rule of active) {
        const message = RULES[rule]({ from, fromRel, to, toRel, spec, typeOnly, test });
        if (!message) continue;
        broken.add(rule);
        if (pendingFor.has(rule)) continue;
        context.report({ node, message: `${message} [${rule}]` });
      }
    }
    const typeOnlyOf = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

    return {
      ImportDeclaration: (node) => check(node, node.source.value, typeOnlyOf(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, typeOnlyOf(node)),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
      'Program:exit': (node) => {
        for (const rule of pendingFor) {
          if (!broken.has(rule)) {
            context.report({
              node,
              message: `${fromRel} no longer breaks [${rule}]: remove it from that rule's pending list in eslint.config.js`,
            });
          }
        }
      },
    };
  },
};
