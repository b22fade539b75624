import crypto from 'node:crypto';
import { demoGroups } from '@yyp/contracts';
import { and, inArray } from 'drizzle-orm';
import { buckets } from '../db/schema.js';
import type { Db } from '../platform/db.js';
import { POSITION_STEP } from '../modules/report-library/kb-position.js';
import { hasGroupItems, insertItem } from '../modules/report-library/kb.store.js';
import {
  hasBucketTemplates,
  hasDescTemplates,
  insertDescTemplate,
  insertTemplate,
} from '../modules/report-library/report-library.store.js';

/** What a radiology department starts from: normal-study templates with the usual wording. */
const templates = [
  {
    category: '胸部',
    title: '胸部CT平扫 正常',
    modality: 'CT',
    bodyPart: '胸部',
    findings:
      '胸廓对称，气管居中。双肺纹理清晰，走行自然，双肺野内未见明确实质性病变。各叶段支气管通畅，未见狭窄或扩张。' +
      '双侧肺门不大，纵隔内未见明显肿大淋巴结。心脏大小、形态未见异常，大血管走行正常。双侧胸膜未见增厚，' +
      '双侧胸腔未见积液。扫描范围内骨质结构未见明显异常。',
    conclusion: '胸部CT平扫未见明显异常。',
  },
  {
    category: '头部',
    title: '头颅CT平扫 正常',
    modality: 'CT',
    bodyPart: '头部',
    findings:
      '脑实质内未见异常密度影，灰白质分界清楚。各脑室、脑池大小及形态未见异常，中线结构居中。' +
      '脑沟、脑裂未见增宽加深。小脑及脑干未见异常密度影。颅骨骨质未见明显异常。',
    conclusion: '头颅CT平扫未见明显异常。',
  },
  {
    category: '腹部',
    title: '腹部超声 正常',
    modality: 'US',
    bodyPart: '腹部',
    findings: [
      '肝脏：形态大小正常，包膜光滑，实质回声均匀，肝内管道结构清晰，门静脉内径正常。',
      '胆囊：大小正常，壁光滑，腔内未见异常回声。',
      '胰腺：形态大小正常，实质回声均匀，主胰管未见扩张。',
      '脾脏：形态大小正常，实质回声均匀。',
      '双肾：形态大小正常，皮髓质分界清楚，集合系统未见分离。',
    ].join('\n'),
    conclusion: '肝、胆、胰、脾、双肾超声检查未见明显异常。',
  },
  {
    category: '胸部',
    title: '胸部DR 正常',
    modality: 'DX',
    bodyPart: '胸部',
    findings:
      '胸廓对称，气管居中。双肺纹理清晰，肺野透亮度正常，未见明确实变影。双侧肺门影不大。' +
      '心影大小、形态在正常范围内。双侧膈面光整，肋膈角锐利。所见骨骼未见明显异常。',
    conclusion: '胸部正位片未见明显异常。',
  },
];

/** The group knowledge base: folders of common phrases (title, phrase). */
const phrases: { folder: string; items: [string, string][] }[] = [
  {
    folder: '肺部',
    items: [
      ['肺纹理正常', '双肺纹理清晰，走行自然。'],
      ['肺野清晰', '双肺野内未见明确实质性病变。'],
      ['支气管通畅', '气管及各叶段支气管通畅，未见狭窄或扩张。'],
      ['无胸腔积液', '双侧胸腔未见积液，胸膜未见增厚。'],
    ],
  },
  {
    folder: '肝脏',
    items: [
      ['肝脏形态正常', '肝脏形态大小正常，包膜光滑。'],
      ['肝实质均匀', '肝实质密度（回声）均匀，未见明显占位性病变。'],
      ['胆管无扩张', '肝内外胆管未见扩张。'],
      ['门静脉正常', '门静脉主干及分支显示清晰，内径正常。'],
    ],
  },
  {
    folder: '头颅',
    items: [
      ['脑实质正常', '脑实质内未见异常密度影，灰白质分界清楚。'],
      ['中线居中', '各脑室、脑池大小及形态未见异常，中线结构居中。'],
      ['颅骨正常', '颅骨骨质未见明显异常。'],
    ],
  },
];

const descTemplates = [
  {
    title: '胸部CT平扫 扫描说明',
    modality: 'CT',
    bodyPart: '胸部',
    content: '扫描范围自胸廓入口至肺底，层厚5mm，肺窗及纵隔窗观察，图像质量良好，未见明显运动伪影。',
  },
  {
    title: '头颅MR平扫 扫描说明',
    modality: 'MR',
    bodyPart: '头部',
    content: '行常规轴位T1WI、T2WI、FLAIR及DWI序列扫描，矢状位T1WI补充，图像质量良好。',
  },
];

/**
 * The report library of every demo organization: report templates, a group knowledge base and
 * image description templates. Each kind is added only to an organization that has none yet, so
 * running the seed again changes nothing.
 */
export async function seedDemoReportLibrary(db: Db, now: Date): Promise<void> {
  const groupIds = demoGroups.map((g) => g.id);
  const codes = demoGroups.flatMap((g) => g.organizations.map((o) => o.code));
  const rows = await db
    .select({ id: buckets.id })
    .from(buckets)
    .where(and(inArray(buckets.groupId, groupIds), inArray(buckets.code, codes)));
  for (const { id: bucketId } of rows) await seedReportLibrary(db, bucketId, now);
}

/** One organization's starter report library (templates, knowledge base, description templates), each kind only when it has none. */
export async function seedReportLibrary(db: Db, bucketId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await hasBucketTemplates(tx, bucketId))) {
      for (const t of templates) {
        await insertTemplate(
          tx,
          { ...t, id: crypto.randomUUID(), scope: 'bucket', bucketId, ownerId: null, createdBy: null },
          now,
        );
      }
    }
    if (!(await hasGroupItems(tx, bucketId))) {
      let folderAt = 0;
      for (const { folder, items } of phrases) {
        const folderRow = await insertItem(
          tx,
          {
            id: crypto.randomUUID(),
            type: 'group',
            bucketId,
            ownerId: null,
            parentId: null,
            referenceId: null,
            isFolder: true,
            title: folder,
            content: '',
            position: ++folderAt * POSITION_STEP,
            createdBy: null,
          },
          now,
        );
        let itemAt = 0;
        for (const [title, content] of items) {
          await insertItem(
            tx,
            {
              id: crypto.randomUUID(),
              type: 'group',
              bucketId,
              ownerId: null,
              parentId: folderRow.id,
              referenceId: null,
              isFolder: false,
              title,
              content,
              position: ++itemAt * POSITION_STEP,
              createdBy: null,
            },
            now,
          );
        }
      }
    }
    if (!(await hasDescTemplates(tx, bucketId))) {
      for (const d of descTemplates) {
        await insertDescTemplate(tx, { ...d, id: crypto.randomUUID(), bucketId, createdBy: null }, now);
      }
    }
  });
}
