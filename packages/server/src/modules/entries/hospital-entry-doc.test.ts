import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { entryCanonical, entryPayloadSchema } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { decodeEntry, encodeEntry, entrySignatureMatches, signEntry } from './entry-signing.js';

/**
 * docs/hospital-entry.md is what hospital IT builds against: its worked example and its Node.js
 * snippet are recomputed here with the server's own signing, so the page cannot drift from the code.
 */
const doc = fs.readFileSync(path.join(import.meta.dirname, '../../../../../docs/hospital-entry.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Worked example'));
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
const secret = /Secret `([^`]+)`/.exec(section)![1]!;
const [json, canonical, signature, entry, snippet] = blocks;

describe('docs/hospital-entry.md', () => {
  const payload = JSON.parse(json!.body) as Parameters<typeof signEntry>[1];

  it("states the worked example's canonical string, signature and entry as yyp computes them", () => {
    expect(entryCanonical(payload)).toBe(canonical!.body);
    expect(signEntry(secret, payload)).toBe(signature!.body);
    expect(encodeEntry(secret, payload)).toBe(entry!.body);
    const decoded = entryPayloadSchema.parse(decodeEntry(entry!.body));
    expect(entrySignatureMatches(secret, decoded)).toBe(true);
    expect(entrySignatureMatches(`${secret}x`, decoded)).toBe(false);
  });

  it('gives a Node.js snippet that makes that very entry', () => {
    expect(snippet!.lang).toBe('js');
    const stubCrypto = {
      ...crypto,
      // The example's nonce and time, so the snippet's output can be compared.
      randomBytes: () => Buffer.from(payload.nonce, 'base64url'),
    };
    const sandbox = {
      require: (name: string) => (name === 'node:crypto' ? stubCrypto : undefined),
      Buffer,
      Date: { now: () => payload.timestamp * 1000 },
      result: '',
    };
    vm.runInNewContext(
      `${snippet!.body}\nresult = yypEntry(${JSON.stringify(secret)}, ${JSON.stringify({
        groupId: payload.groupId,
        username: payload.username,
        target: payload.target,
      })});`,
      sandbox,
    );
    expect(sandbox.result).toBe(entry!.body);
  });
});
