import { describe, expect, it } from 'vitest';
import { startupProblem, type StartupContext } from './startup-problem';

const sqlite: StartupContext = { host: '127.0.0.1', port: 8080, dataDir: '/srv/raidmap/data' };
const pg: StartupContext = { ...sqlite, databaseUrl: 'postgres://raid:s3cret-pass@db.internal:5433/raidmap' };

const err = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'x')), fields);

describe('startupProblem', () => {
  it('says a port in use, a privileged port and a HOST that is no address here', () => {
    expect(startupProblem(err({ code: 'EADDRINUSE', syscall: 'listen' }), sqlite)).toBe(
      'port 8080 on 127.0.0.1 is in use (another server, or raidmap already running): stop it or set PORT to a free port',
    );
    expect(startupProblem(err({ code: 'EACCES', syscall: 'listen' }), { ...sqlite, port: 80 })).toMatch(/^not allowed to listen on 127\.0\.0\.1:80: ports under 1024/);
    expect(startupProblem(err({ code: 'EADDRNOTAVAIL', syscall: 'listen' }), { ...sqlite, host: '10.9.9.9' })).toMatch(/^HOST=10\.9\.9\.9 is not an address of this machine/);
    expect(startupProblem(err({ code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'not.a.host' }), { ...sqlite, host: 'not.a.host' })).toMatch(/^HOST=not\.a\.host is not an address/);
  });

  it('says which path cannot be written, and why', () => {
    expect(startupProblem(err({ code: 'ENOTDIR', syscall: 'mkdir', path: '/srv/file/data' }), sqlite)).toBe(
      'cannot write /srv/file/data (a part of the path is a file, not a folder): check DATA_DIR (now /srv/raidmap/data) and TILES_DIR',
    );
    expect(startupProblem(err({ code: 'EACCES', syscall: 'open', path: '/srv/raidmap/data/raidmap.sqlite' }), sqlite)).toMatch(/\(no permission to write there\)/);
    expect(startupProblem(err({ code: 'EROFS', syscall: 'mkdir', path: '/ro' }), sqlite)).toMatch(/\(the disk is read-only\)/);
  });

  it('says what PostgreSQL refused, never its password', () => {
    const lines = [
      startupProblem(err({ code: 'ECONNREFUSED', syscall: 'connect', address: '10.0.0.1', port: 5433 }), pg),
      startupProblem(err({ code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'db.internal' }), pg),
      startupProblem(err({ code: '28P01', message: 'password authentication failed for user "raid"' }), pg),
      startupProblem(err({ code: '3D000', message: 'database "raidmap" does not exist' }), pg),
      startupProblem(err({ code: '28000', message: 'no pg_hba.conf entry for host "10.0.0.2", user "raid", database "raidmap", no encryption' }), pg),
      startupProblem(err({ message: 'The server does not support SSL connections' }), pg),
    ];
    expect(lines).toEqual([
      'PostgreSQL at db.internal:5433 refused the connection: is it running, and is DATABASE_URL\'s host and port right?',
      'PostgreSQL host db.internal:5433 was not found: check DATABASE_URL\'s host',
      'PostgreSQL refused the password of user raid: check DATABASE_URL',
      'PostgreSQL at db.internal:5433 has no database raidmap: create it (createdb raidmap) or fix DATABASE_URL',
      expect.stringMatching(/^PostgreSQL at db\.internal:5433 does not let user raid in: no pg_hba\.conf entry .*sslmode=require/),
      'PostgreSQL at db.internal:5433: The server does not support SSL connections (check DATABASE_URL\'s sslmode)',
    ]);
    for (const line of lines) expect(line).not.toContain('s3cret');
  });

  it('leaves raidmap\'s own faults to the full error (null)', () => {
    expect(startupProblem(new TypeError('x is not a function'), sqlite)).toBeNull();
    expect(startupProblem(err({ code: 'ECONNREFUSED' }), sqlite)).toBeNull();
    expect(startupProblem('a string', sqlite)).toBeNull();
    expect(startupProblem(null, sqlite)).toBeNull();
  });
});
