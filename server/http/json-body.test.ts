import { describe, expect, it } from 'vitest';
import { decodeJsonBody, parseJsonBody } from './json-body';

describe('parseJsonBody', () => {
  it('parses JSON', () => {
    expect(parseJsonBody('{"a":[1,{"b":"c"}],"constructor":"x"}')).toEqual({ a: [1, { b: 'c' }], constructor: 'x' });
  });

  it('refuses prototype keys at any depth, saying which', () => {
    expect(() => parseJsonBody('{"a":{"__proto__":{"admin":true}}}')).toThrow(/^body: a key named "__proto__" is not accepted$/);
    expect(() => parseJsonBody('[{"constructor":{"prototype":{"x":1}}}]')).toThrow(/"constructor" holding "prototype"/);
  });

  it('says what is wrong with text that is not JSON, with a 400', () => {
    expect(() => parseJsonBody('{not json')).toThrow(/^body: not valid JSON \(/);
    expect(() => parseJsonBody('  ')).toThrow(/^body: empty/);
    try {
      parseJsonBody('[');
    } catch (error) {
      expect((error as { statusCode?: number }).statusCode).toBe(400);
    }
  });
});

describe('parseJsonBody on deep input', () => {
  it('parses and searches a deeply nested body without overflowing the stack', () => {
    const depth = 50_000;
    expect(() => parseJsonBody(`${'['.repeat(depth)}${']'.repeat(depth)}`)).not.toThrow();
    expect(() => parseJsonBody(`${'['.repeat(depth)}{"__proto__":1}${']'.repeat(depth)}`)).toThrow(/__proto__/);
  });
});

describe('decodeJsonBody', () => {
  it('refuses bytes that are not UTF-8, naming the byte, instead of reading U+FFFD in their place', () => {
    // "a\ud800b" as a surrogate encoded in UTF-8 (CESU), which Buffer#toString reads as three U+FFFD.
    const cesu = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('b"}')]);
    expect(() => decodeJsonBody(cesu)).toThrow('body: not valid UTF-8 text (a bad byte sequence at byte 10)');
    expect(() => decodeJsonBody(Buffer.from([0x22, 0x80, 0x22]))).toThrow(/at byte 1\)/);
    expect(() => decodeJsonBody(Buffer.from([0x22, 0xc3]))).toThrow(/at byte 1\)/);
  });

  it('reads valid UTF-8 as it is, U+FFFD and emoji included', () => {
    for (const text of ['{"name":"Тайник 😀"}', '{"name":"\ufffd"}', '']) expect(decodeJsonBody(Buffer.from(text, 'utf8'))).toBe(text);
  });
});
