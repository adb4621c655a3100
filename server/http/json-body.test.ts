import { describe, expect, it } from 'vitest';
import { parseJsonBody } from './json-body';

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
