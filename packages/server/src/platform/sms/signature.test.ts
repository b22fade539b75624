import { describe, expect, it } from 'vitest';
import {
  canonicalQuery,
  percentEncode,
  rpcTimestamp,
  signedSendSmsParams,
  signRpc,
  stringToSign,
} from './signature.js';

describe('the Alibaba Cloud RPC signature', () => {
  // The worked example of Alibaba Cloud SMS's documentation of its request signature (请求签名,
  // https://help.aliyun.com/document_detail/101343.htm): AccessKeyId testId, AccessKeySecret
  // testSecret, a GET of SendSms; the documented Signature is zJDF%2BLrzhj%2FThnlvIToysFRq6t4%3D.
  const documented: Record<string, string> = {
    AccessKeyId: 'testId',
    Action: 'SendSms',
    Format: 'XML',
    OutId: '123',
    PhoneNumbers: '15300000001',
    RegionId: 'cn-hangzhou',
    SignName: '阿里云短信测试专用',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
    SignatureVersion: '1.0',
    TemplateCode: 'SMS_71390007',
    TemplateParam: '{"customer":"test"}',
    Timestamp: '2017-07-12T02:42:19Z',
    Version: '2017-05-25',
  };

  it('gives the documented signature of the documented request', () => {
    expect(stringToSign('GET', documented)).toBe(
      'GET&%2F&AccessKeyId%3DtestId%26Action%3DSendSms%26Format%3DXML%26OutId%3D123%26PhoneNumbers%3D15300000001' +
        '%26RegionId%3Dcn-hangzhou%26SignName%3D%25E9%2598%25BF%25E9%2587%258C%25E4%25BA%2591%25E7%259F%25AD' +
        '%25E4%25BF%25A1%25E6%25B5%258B%25E8%25AF%2595%25E4%25B8%2593%25E7%2594%25A8%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D45e25e9b-0a6f-4070-8c85-2956eda1b466%26SignatureVersion%3D1.0' +
        '%26TemplateCode%3DSMS_71390007%26TemplateParam%3D%257B%2522customer%2522%253A%2522test%2522%257D' +
        '%26Timestamp%3D2017-07-12T02%253A42%253A19Z%26Version%3D2017-05-25',
    );
    expect(signRpc(documented, 'testSecret', 'GET')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
    expect(percentEncode(signRpc(documented, 'testSecret', 'GET'))).toBe('zJDF%2BLrzhj%2FThnlvIToysFRq6t4%3D');
  });

  it('signs the parameters whatever their order, and never the Signature itself', () => {
    const shuffled = Object.fromEntries(Object.entries(documented).reverse());
    expect(signRpc({ ...shuffled, Signature: 'x' }, 'testSecret', 'GET')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
    expect(signRpc(documented, 'testSecret', 'POST')).not.toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
    expect(signRpc(documented, 'otherSecret', 'GET')).not.toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it("percent-encodes as RFC 3986 says: space %20, * %2A, ~ kept, !'() encoded", () => {
    expect(percentEncode('a b*c~d')).toBe('a%20b%2Ac~d');
    expect(percentEncode("!'()")).toBe('%21%27%28%29');
    expect(percentEncode('-_.')).toBe('-_.');
    expect(percentEncode('仁和')).toBe('%E4%BB%81%E5%92%8C');
    expect(canonicalQuery({ b: '2', a: '1 2', Signature: 's' })).toBe('a=1%202&b=2');
    expect(stringToSign('POST', { a: '=' })).toBe('POST&%2F&a%3D%253D');
  });

  it('writes the Timestamp in UTC without milliseconds', () => {
    expect(rpcTimestamp(new Date('2017-07-12T10:42:19.999+08:00'))).toBe('2017-07-12T02:42:19Z');
  });

  it('still verifies after the form encoding of a POST body (spaces, *, ~, Chinese)', () => {
    const params = { SignName: '仁和 医院*~', TemplateParam: '{"code":"0 1*"}', Nonce: "a!b'c(d)" };
    const body = new URLSearchParams(params).toString();
    const received = Object.fromEntries(new URLSearchParams(body));
    expect(received).toEqual(params);
    expect(signRpc(received, 'k', 'POST')).toBe(signRpc(params, 'k', 'POST'));
  });

  it('builds a complete SendSms request', () => {
    const input = {
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      region: 'cn-hangzhou',
      phoneNumbers: '13800000000',
      signName: 'yyp',
      templateCode: 'SMS_1',
      templateParam: { code: '012345' },
      now: new Date('2026-11-28T08:00:00.123Z'),
      nonce: 'n-1',
    };
    const params = signedSendSmsParams(input);
    expect(params).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      Format: 'JSON',
      Timestamp: '2026-11-28T08:00:00Z',
      TemplateParam: '{"code":"012345"}',
      SignatureNonce: 'n-1',
    });
    expect(Object.keys(params).sort()).toEqual([
      'AccessKeyId',
      'Action',
      'Format',
      'PhoneNumbers',
      'RegionId',
      'SignName',
      'Signature',
      'SignatureMethod',
      'SignatureNonce',
      'SignatureVersion',
      'TemplateCode',
      'TemplateParam',
      'Timestamp',
      'Version',
    ]);
    const { Signature, ...rest } = params;
    expect(Signature).toBe(signRpc(rest, 'secret', 'POST'));
    const fresh = () => signedSendSmsParams({ ...input, nonce: undefined }).SignatureNonce;
    expect(fresh()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fresh()).not.toBe(fresh());
  });
});
