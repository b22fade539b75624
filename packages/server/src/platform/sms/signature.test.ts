import { describe, expect, it } from 'vitest';
import { canonicalQuery, percentEncode, signedSendSmsParams, signRpc, stringToSign } from './signature.js';

describe('the Alibaba Cloud RPC signature', () => {
  // The worked example of Alibaba Cloud SMS's documentation of its signature (HTTP 协议及签名,
  // help.aliyun.com/document_detail/101343): AccessKeySecret testSecret, GET.
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

  it('builds a complete SendSms request', () => {
    const params = signedSendSmsParams({
      accessKeyId: 'id',
      accessKeySecret: 'secret',
      region: 'cn-hangzhou',
      phoneNumbers: '13800000000',
      signName: 'yyp',
      templateCode: 'SMS_1',
      templateParam: { code: '012345' },
      now: new Date('2026-11-28T08:00:00.123Z'),
      nonce: 'n-1',
    });
    expect(params).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      Format: 'JSON',
      Timestamp: '2026-11-28T08:00:00Z',
      TemplateParam: '{"code":"012345"}',
      SignatureNonce: 'n-1',
    });
    const { Signature, ...rest } = params;
    expect(Signature).toBe(signRpc(rest, 'secret', 'POST'));
  });
});
