/**
 * Text that is not valid Unicode (a lone UTF-16 surrogate as a JSON escape, or bytes that are
 * not UTF-8) is refused on every JSON body with a 400 naming the field, and nothing is stored:
 * it used to be stored as U+FFFD (one to three per surrogate), changed and over its bound.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testBackends } from '../testing/databases';
import { testMarker } from '../testing/markers';
import { useRoleApp } from '../testing/role-app';

/** `{"name":"a\ud800b"}`-style JSON text: the escape as written, not a character. */
const loneHigh = 'a\\ud800b';

describe.each(testBackends())('text that is not valid Unicode on $name', (backend) => {
  const server = useRoleApp(backend, (root) => ({ uploadsDir: path.join(root, 'uploads'), distDir: path.join(root, 'dist'), assetsDir: path.join(root, 'assets'), tiles: false }), {
    seed: (repos) => repos.markers.insertMany([testMarker('kept', { name: 'Kept' })]),
  });

  const post = (url: string, payload: string | Buffer, cookie = server.cookies.admin) =>
    server.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, payload });
  /** A marker's JSON with `field` (a top-level key) set to raw JSON text. */
  const markerJson = (uid: string, field: string, json: string, extra: Record<string, unknown> = {}) => {
    const { [field]: _dropped, ...rest } = { ...testMarker(uid), ...extra } as Record<string, unknown>;
    return `${JSON.stringify(rest).slice(0, -1)},"${field}":${json}}`;
  };

  it('checks the role first: 401, 403, 403 for a body with a lone surrogate', async () => {
    const body = markerJson('perm', 'name', `"${loneHigh}"`);
    expect((await post('/api/be/admin/marker/add', body, '')).statusCode).toBe(401);
    expect((await post('/api/be/admin/marker/add', body, server.cookies.visitor)).statusCode).toBe(403);
    expect((await post('/api/be/admin/marker/add', body, server.cookies.pro)).statusCode).toBe(403);
    expect(await server.repos.markers.get('perm')).toBeUndefined();
  });

  it('refuses a lone surrogate in any text field of an add or an update with 400 naming it; nothing stored', async () => {
    const cases: Array<[string, string, string]> = [
      ['name', `"${loneHigh}"`, 'name: must be valid Unicode text (a lone surrogate at 1)'],
      ['desc', '"\\udc00"', 'desc: must be valid Unicode text (a lone surrogate at 0)'],
      ['name_l10n', '{"ru":"ok\\ud83d"}', 'name_l10n.ru: must be valid Unicode text (a lone surrogate at 2)'],
      ['imgs', '[{"img":"/uploads/a.webp","name":"x\\ud800"}]', 'imgs[0].name: must be valid Unicode text (a lone surrogate at 1)'],
      ['extra', '{"note":"\\ud800"}', 'extra.note: must be valid Unicode text (a lone surrogate at 0)'],
    ];
    for (const [field, json, message] of cases) {
      const add = await post('/api/be/admin/marker/add', markerJson(`new-${field}`, field, json));
      expect(add.statusCode, field).toBe(400);
      expect(add.json(), field).toEqual({ error: 'Bad Request', message });
      expect(await server.repos.markers.get(`new-${field}`), field).toBeUndefined();
      const update = await post('/api/be/admin/marker/update', markerJson('kept', field, json, { version: 1 }));
      expect(update.statusCode, field).toBe(400);
      expect(update.json(), field).toEqual({ error: 'Bad Request', message });
    }
    // 200 lone surrogates: refused, not stored as 600 replacement characters.
    const many = await post('/api/be/admin/marker/add', markerJson('many', 'name', `"${'\\ud800'.repeat(200)}"`));
    expect(many.statusCode).toBe(400);
    expect(await server.repos.markers.get('many')).toBeUndefined();
    expect((await server.repos.markers.get('kept'))?.name).toBe('Kept');
  });

  it('refuses a body whose bytes are not UTF-8 (a surrogate encoded as ED A0 80), for other routes too', async () => {
    const cesu = Buffer.concat([Buffer.from(markerJson('bytes', 'name', '"a').slice(0, -1)), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('b"}')]);
    const add = await post('/api/be/admin/marker/add', cesu);
    expect(add.statusCode).toBe(400);
    expect(add.json().message).toMatch(/^body: not valid UTF-8 text \(a bad byte sequence at byte \d+\)$/);
    expect(await server.repos.markers.get('bytes')).toBeUndefined();
    const login = await post('/api/be/auth/login', Buffer.concat([Buffer.from('{"name":"x'), Buffer.from([0xff]), Buffer.from('","password":"password1"}')]), '');
    expect(login.statusCode).toBe(400);
    expect(login.json().message).toMatch(/^body: not valid UTF-8 text/);
    const progress = await post('/api/be/user/progress', '{"quests":{"\\ud800":true}}', server.cookies.visitor);
    expect(progress.statusCode).toBe(400);
    expect(progress.json().message).toBe('quests.\\ud800: must be valid Unicode text (a lone surrogate at 0)');
  });

  it('stores valid text as sent: emoji (surrogate pairs), U+FFFD itself, Cyrillic', async () => {
    const name = 'Тайник 😀 \ufffd';
    const add = await post('/api/be/admin/marker/add', JSON.stringify(testMarker('valid', { name, name_l10n: { ru: '😀' } })));
    expect(add.statusCode, add.body).toBe(201);
    const stored = await server.repos.markers.get('valid');
    expect(stored?.name).toBe(name);
    expect(stored?.name_l10n).toEqual({ ru: '😀' });
  });
});
