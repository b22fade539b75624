// Patient names for the bench seeds (bench/studies, bench/mwl): Chinese names with their pinyin
// initials, and a few Latin ones; and a text array literal for PostgreSQL.

const SURNAMES = [
  ['王', 'w'],
  ['李', 'l'],
  ['张', 'z'],
  ['刘', 'l'],
  ['陈', 'c'],
  ['杨', 'y'],
  ['黄', 'h'],
  ['赵', 'z'],
  ['吴', 'w'],
  ['周', 'z'],
  ['徐', 'x'],
  ['孙', 's'],
  ['马', 'm'],
  ['朱', 'z'],
  ['胡', 'h'],
  ['郭', 'g'],
];
const GIVEN = [
  ['伟', 'w'],
  ['芳', 'f'],
  ['娜', 'n'],
  ['敏', 'm'],
  ['静', 'j'],
  ['丽', 'l'],
  ['强', 'q'],
  ['磊', 'l'],
  ['军', 'j'],
  ['洋', 'y'],
  ['勇', 'y'],
  ['艳', 'y'],
  ['杰', 'j'],
  ['涛', 't'],
  ['明', 'm'],
  ['超', 'c'],
];
const LATIN = ['SMITH^JOHN', 'DOE^JANE', 'MILLER^ANNA', 'BROWN^DAVID', 'WILSON^EMMA', 'TAYLOR^LUKE'];

export function names() {
  const out = [];
  for (const [s, si] of SURNAMES) {
    for (const [g1, i1] of GIVEN) {
      out.push([`${s}${g1}`, `${si}${i1}`]);
      for (const [g2, i2] of GIVEN.slice(0, 4)) out.push([`${s}${g1}${g2}`, `${si}${i1}${i2}`]);
    }
  }
  for (const n of LATIN) out.push([n, '']);
  return out;
}

export const pgArray = (values) => `{${values.map((v) => JSON.stringify(v)).join(',')}}`;
