import type { DiffPart } from '@yyp/contracts';

/**
 * Word-level diff for the trace tab (GET reports/{id}/diff-trace): Latin words and numbers are
 * tokens, Chinese (and any other CJK or Tibetan syllable-less script) is diffed character by
 * character, whitespace and punctuation are tokens of their own. Myers' O(ND) algorithm over the
 * tokens after the common prefix and suffix are set aside; past MAX_EDITS edits the middle is
 * shown as one deletion and one insertion rather than spending quadratic memory.
 */

const MAX_EDITS = 2000;

/** Latin letters/digits (with inner . , ' -) form words; everything else is one token per character, whitespace runs one token. */
const TOKEN = /[\p{Script=Latin}\p{Nd}]+(?:[.,'’-][\p{Script=Latin}\p{Nd}]+)*|\s+|[\s\S]/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function diffTokens(a: readonly string[], b: readonly string[]): DiffPart[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += text;
    else parts.push({ op, text });
  };
  push('equal', a.slice(0, start).join(''));
  const middle = myers(a.slice(start, endA), b.slice(start, endB));
  if (middle) for (const p of middle) push(p.op, p.text);
  else {
    push('delete', a.slice(start, endA).join(''));
    push('insert', b.slice(start, endB).join(''));
  }
  push('equal', a.slice(endA).join(''));
  return parts;
}

export function diffText(before: string, after: string): DiffPart[] {
  return diffTokens(tokenize(before), tokenize(after));
}

/** Myers' shortest edit script; null when it needs more than MAX_EDITS edits. */
function myers(a: readonly string[], b: readonly string[]): DiffPart[] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)) x = v[offset + k + 1]!;
      else x = v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d, offset);
    }
    v = next;
  }
  return null;
}

function backtrack(
  trace: Int32Array[],
  a: readonly string[],
  b: readonly string[],
  dEnd: number,
  offset: number,
): DiffPart[] {
  const out: DiffPart[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d >= 0; d--) {
    const prev = trace[d]!;
    const k = x - y;
    let prevK: number;
    if (d === 0) prevK = 0;
    else if (k === -d || (k !== d && prev[offset + k - 1]! < prev[offset + k + 1]!)) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : prev[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: 'equal', text: a[x - 1]! });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) out.push({ op: 'insert', text: b[y - 1]! });
      else out.push({ op: 'delete', text: a[x - 1]! });
    }
    x = prevX;
    y = prevY;
  }
  out.reverse();
  // Merge neighbours of the same kind.
  const merged: DiffPart[] = [];
  for (const p of out) {
    const tail = merged[merged.length - 1];
    if (tail && tail.op === p.op) tail.text += p.text;
    else merged.push({ ...p });
  }
  return merged;
}
