import { displayPersonName, type Language } from '@yyp/contracts';

/**
 * The media's offline index (INDEX.HTM) and README.TXT, in the caller's language: which patients,
 * studies and series the disc holds, with counts and the folder of each series. A plain HTML page:
 * no script, no style sheet or image from elsewhere, nothing fetched, so any browser shows it from
 * the disc.
 */
export interface MediaSummary {
  patients: {
    name: string;
    id: string;
    birthDate: string;
    sex: string;
    studies: {
      date: string;
      time: string;
      description: string;
      accessionNumber: string;
      series: { number: number | null; modality: string; description: string; folder: string; count: number }[];
    }[];
  }[];
}

type Labels = Record<Language, string>;
const L = {
  title: { chs: 'DICOM 影像光盘', en: 'DICOM image disc', tib: 'DICOM པར་རིས་འོད་སྡེར།' },
  intro: {
    chs: '本光盘为符合 DICOM 标准（PS3.10）的医学影像介质：用 DICOM 阅片软件打开本目录中的 DICOMDIR 文件即可查看全部影像。',
    en: 'This disc holds medical images as DICOM media (PS3.10): open the DICOMDIR file of this folder with a DICOM viewer to see every image.',
    tib: 'འོད་སྡེར་འདིའི་ནང་ DICOM ཚད་གཞི་(PS3.10)དང་མཐུན་པའི་གསོ་རིག་པར་རིས་ཡོད། DICOM ལྟ་ཆས་ཀྱིས་ཡིག་ཁུག་འདིའི་ DICOMDIR ཁ་ཕྱེ་ན་པར་རིས་ཡོངས་རྫོགས་མཐོང་ཐུབ།',
  },
  patient: { chs: '患者', en: 'Patient', tib: 'ནད་པ།' },
  patientId: { chs: '患者编号', en: 'Patient ID', tib: 'ནད་པའི་ཨང་།' },
  birthDate: { chs: '出生日期', en: 'Birth date', tib: 'སྐྱེས་ཚེས།' },
  sex: { chs: '性别', en: 'Sex', tib: 'ཕོ་མོ།' },
  study: { chs: '检查', en: 'Study', tib: 'ཞིབ་བཤེར།' },
  studyDate: { chs: '检查日期', en: 'Study date', tib: 'ཞིབ་བཤེར་ཚེས་གྲངས།' },
  accession: { chs: '检查号', en: 'Accession number', tib: 'ཞིབ་བཤེར་ཨང་།' },
  description: { chs: '描述', en: 'Description', tib: 'འགྲེལ་བཤད།' },
  series: { chs: '序列', en: 'Series', tib: 'རིམ་པ།' },
  modality: { chs: '设备类型', en: 'Modality', tib: 'སྒྲིག་ཆས་རིགས།' },
  images: { chs: '文件数', en: 'Files', tib: 'ཡིག་ཆའི་གྲངས།' },
  folder: { chs: '文件夹', en: 'Folder', tib: 'ཡིག་ཁུག' },
  totals: { chs: '合计', en: 'Total', tib: 'བསྡོམས།' },
  patients: { chs: '位患者', en: 'patients', tib: 'ནད་པ།' },
  studies: { chs: '个检查', en: 'studies', tib: 'ཞིབ་བཤེར།' },
  files: { chs: '个文件', en: 'files', tib: 'ཡིག་ཆ།' },
  readme: {
    chs: '本目录为 DICOM 介质文件集：DICOMDIR 为目录文件，DICOM 文件夹中为影像文件（无扩展名）。刻录光盘时请将本目录中的全部内容刻录到光盘根目录。INDEX.HTM 可用浏览器打开查看内容清单。',
    en: 'This folder is a DICOM media file-set: DICOMDIR is its directory, the DICOM folder holds the image files (no file extension). To make a CD or DVD, write everything in this folder to the root of the disc. Open INDEX.HTM in a browser for a list of the contents.',
    tib: 'ཡིག་ཁུག་འདི་ DICOM བརྒྱུད་ལམ་གྱི་ཡིག་ཚོགས་ཡིན། DICOMDIR ནི་དཀར་ཆག་ཡིན། DICOM ཡིག་ཁུག་ནང་པར་རིས་ཡིག་ཆ་ཡོད། འོད་སྡེར་བཟོ་སྐབས་ཡིག་ཁུག་འདིའི་ནང་དོན་ཚང་མ་འོད་སྡེར་གྱི་རྩ་བར་འབྲི་དགོས། INDEX.HTM ལྟ་ཆས་ཀྱིས་ཁ་ཕྱེ་ན་ནང་དོན་གྱི་ཐོ་མཐོང་ཐུབ།',
  },
} satisfies Record<string, Labels>;

const HTML_LANG: Labels = { chs: 'zh-Hans', en: 'en', tib: 'bo' };

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const date = (d: string) => (/^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : d);
const time = (t: string) => (/^\d{4}/.test(t) ? ` ${t.slice(0, 2)}:${t.slice(2, 4)}` : '');

function counts(summary: MediaSummary) {
  const studies = summary.patients.reduce((n, p) => n + p.studies.length, 0);
  const files = summary.patients.flatMap((p) => p.studies.flatMap((s) => s.series)).reduce((n, s) => n + s.count, 0);
  return { patients: summary.patients.length, studies, files };
}

function totals(summary: MediaSummary, lang: Language): string {
  const c = counts(summary);
  return `${L.totals[lang]}: ${c.patients} ${L.patients[lang]}, ${c.studies} ${L.studies[lang]}, ${c.files} ${L.files[lang]}`;
}

/** INDEX.HTM: the media's patients, studies and series with their counts. */
export function indexPage(summary: MediaSummary, lang: Language): string {
  const t = (key: keyof typeof L) => escape(L[key][lang]);
  const cell = (s: string) => `<td>${escape(s)}</td>`;
  const body = summary.patients.map((p) => {
    const studies = p.studies.map((s) => {
      const rows = s.series
        .map((se) =>
          [
            '<tr>',
            cell(se.number === null ? '' : String(se.number)),
            cell(se.modality),
            cell(se.description),
            `<td class="n">${se.count}</td>`,
            `<td><code>${escape(se.folder)}</code></td>`,
            '</tr>',
          ].join(''),
        )
        .join('\n');
      return [
        `<h3>${t('study')}: ${escape(date(s.date) + time(s.time))} ${escape(s.description)}</h3>`,
        `<p>${t('accession')}: ${escape(s.accessionNumber)}</p>`,
        `<table><tr><th>${t('series')}</th><th>${t('modality')}</th><th>${t('description')}</th><th>${t('images')}</th><th>${t('folder')}</th></tr>`,
        rows,
        '</table>',
      ].join('\n');
    });
    return [
      `<h2>${t('patient')}: ${escape(displayPersonName(p.name, lang))}</h2>`,
      `<p>${t('patientId')}: ${escape(p.id)} · ${t('birthDate')}: ${escape(date(p.birthDate))} · ${t('sex')}: ${escape(p.sex)}</p>`,
      ...studies,
    ].join('\n');
  });
  return [
    '<!DOCTYPE html>',
    `<html lang="${HTML_LANG[lang]}"><head><meta charset="utf-8"><title>${t('title')}</title>`,
    '<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}',
    'td,th{border:1px solid #999;padding:4px 8px;text-align:left}td.n{text-align:right}</style></head><body>',
    `<h1>${t('title')}</h1>`,
    `<p>${t('intro')}</p>`,
    `<p>${escape(totals(summary, lang))}</p>`,
    ...body,
    '</body></html>',
    '',
  ].join('\n');
}

/** README.TXT: what the folder is and how to write it to a disc (CRLF, UTF-8 with a byte order mark). */
export function readme(summary: MediaSummary, lang: Language): string {
  return `\ufeff${L.title[lang]}\r\n\r\n${L.readme[lang]}\r\n\r\n${totals(summary, lang)}\r\n`;
}
