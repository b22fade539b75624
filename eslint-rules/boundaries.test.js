// The arrows of eslint-rules/boundaries.js, case by case: each rule refuses the import it names and
// lets the allowed ones through (ESLint's RuleTester, files named where the rule would see them).
import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';
import boundaries, { partOf } from './boundaries.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it;

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const at = (rel) => path.join(root, rel);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const broken = (rule) => [{ message: new RegExp(`\\[${rule}\\]$`) }];

const S = 'packages/server/src/';
const W = 'packages/web/src/';

tester.run('yyp/boundaries', boundaries, {
  valid: [
    // a module: its own store, another module's face, platform, db row types
    { filename: at(`${S}modules/reports/reports.service.ts`), code: "import { x } from './reports.store.js';" },
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import { ownerOfExam } from '../exams/index.js';",
    },
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import type { ReportRow } from '../../db/schema.js';",
    },
    { filename: at(`${S}modules/reports/reports.store.ts`), code: "import { reports } from '../../db/schema.js';" },
    { filename: at(`${S}modules/reports/reports.store.ts`), code: "import { eq } from 'drizzle-orm';" },
    // test code and data builders
    {
      filename: at(`${S}test/factories.ts`),
      code: "import { insertAccount } from '../modules/accounts/accounts.store.js';",
    },
    {
      filename: at(`${S}seed/demo.ts`),
      code: "import { insertAccount } from '../modules/accounts/accounts.store.js';",
    },
    {
      filename: at(`${S}modules/reports/reports.int.test.ts`),
      code: "import { t } from '../report-print/report-print.fixture.js';",
    },
    { filename: at(`${S}platform/compression.int.test.ts`), code: "import { p } from '../../../web/precompress.js';" },
    // the composition root and the CLI
    { filename: at(`${S}app.ts`), code: "import { reportsRoutes } from './modules/reports/index.js';" },
    { filename: at(`${S}main.ts`), code: "import { seedDemo } from './seed/demo.js';" },
    // the web
    {
      filename: at(`${W}features/reports/ReportActionBar.tsx`),
      code: "import { useNotify } from '../../shared/notify/useNotify';",
    },
    { filename: at(`${W}features/reports/ReportActionBar.tsx`), code: "import { x } from './actionButtons';" },
    {
      filename: at(`${W}app/routes.tsx`),
      code: "import { ReportEditorPage } from '../features/reports/ReportEditorPage';",
    },
    { filename: at(`${W}shared/labels/ReportStatusTag.tsx`), code: "import { t } from '../../i18n';" },
    { filename: at('packages/contracts/src/call.ts'), code: "import { z } from 'zod';" },
  ],
  invalid: [
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import { ownerOfExam } from '../exams/exams.store.js';",
      errors: broken('module-face'),
    },
    {
      filename: at(`${S}modules/reports/reports.int.test.ts`),
      code: "import { insertAccount } from '../accounts/accounts.store.js';",
      errors: broken('module-face'),
    },
    {
      filename: at(`${S}platform/audit.ts`),
      code: "import { getDomainConfig } from '../modules/domain/index.js';",
      errors: broken('platform-no-module'),
    },
    {
      filename: at(`${S}dicom/dimse.ts`),
      code: "import { x } from '../modules/archive/index.js';",
      errors: broken('dicom-no-module'),
    },
    {
      filename: at(`${S}modules/reports/reports.routes.ts`),
      code: "import { x } from './reports.store.js';",
      errors: broken('routes-no-store'),
    },
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import { eq } from 'drizzle-orm';",
      errors: broken('sql-in-stores'),
    },
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import { reports } from '../../db/schema.js';",
      errors: broken('sql-in-stores'),
    },
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import { makeAccount } from '../../test/factories.js';",
      errors: broken('module-no-test-code'),
    },
    {
      filename: at(`${W}features/studies/StudiesPage.tsx`),
      code: "import { ReportStatusTag } from '../reports/ReportStatusTag';",
      errors: broken('feature-alone'),
    },
    {
      filename: at(`${W}features/studies/StudiesPage.tsx`),
      code: "import { useNotify } from '../../app/useNotify';",
      errors: broken('feature-alone'),
    },
    {
      filename: at(`${W}ui/DeleteByNameCard.tsx`),
      code: "import { x } from '../features/groups/useGroups';",
      errors: broken('ui-alone'),
    },
    {
      filename: at(`${W}api/reports.ts`),
      code: "import { x } from '../../../server/src/modules/reports/index.js';",
      errors: broken('web-not-server'),
    },
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import { x } from '@yyp/web';",
      errors: broken('server-not-web'),
    },
    {
      filename: at('packages/contracts/src/reports.ts'),
      code: "import { x } from '../../server/src/platform/errors.js';",
      errors: broken('contracts-alone'),
    },
    {
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "const m = await import('../exams/exams.store.js');",
      errors: broken('module-face'),
    },
    {
      // a file on a rule's pending list that no longer breaks it is reported, so the list shrinks
      filename: at(`${S}modules/reports/reports.service.ts`),
      code: "import { x } from './reports.store.js';",
      options: [{ pending: { 'module-face': [`${S}modules/reports/reports.service.ts`] } }],
      errors: [{ message: /no longer breaks \[module-face\]/ }],
    },
  ],
});

describe('partOf', () => {
  it('names the part of each folder', ({ expect }) => {
    expect(partOf(`${S}modules/exams/exams.store.ts`)).toEqual({ kind: 'module', name: 'exams' });
    expect(partOf(`${S}platform/auth.ts`)).toEqual({ kind: 'platform' });
    expect(partOf(`${S}app.ts`)).toEqual({ kind: 'server-root' });
    expect(partOf(`${W}features/reports/x.tsx`)).toEqual({ kind: 'feature', name: 'reports' });
    expect(partOf(`${W}shared/notify/useNotify.ts`)).toEqual({ kind: 'web-shared', name: 'shared' });
    expect(partOf('packages/contracts/src/index.ts')).toEqual({ kind: 'contracts' });
  });
});
