import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER, USAGE, UsageError, defaultLogsDir, defaultScreenshotsDir, parseArgs, type ArgsEnvironment } from './args';
import { stateFilePath } from './state';

const win: ArgsEnvironment = { platform: 'win32', env: { USERPROFILE: 'C:\\Users\\me', SystemDrive: 'C:' }, homedir: 'C:\\Users\\me' };
const linux: ArgsEnvironment = { platform: 'linux', env: { HOME: '/home/me' }, homedir: '/home/me' };
const mac: ArgsEnvironment = { platform: 'darwin', env: { HOME: '/Users/me' }, homedir: '/Users/me' };

describe('parseArgs defaults', () => {
  it('on Windows: Documents screenshots, the launcher Logs folder, the local server', () => {
    const parsed = parseArgs([], win);
    expect(parsed).toEqual({
      help: false,
      server: DEFAULT_SERVER,
      screenshots: 'C:\\Users\\me\\Documents\\Escape from Tarkov\\Screenshots',
      logs: 'C:\\Battlestate Games\\Escape from Tarkov\\Logs',
      pairing: null,
      deleteScreenshots: false,
    });
  });

  it('on Windows: OneDrive Documents and the EFT install folder when only those exist', () => {
    const env = { ...win, env: { ...win.env, OneDrive: 'C:\\Users\\me\\OneDrive' } };
    const exists = (dir: string) => dir.includes('OneDrive') || dir.includes('\\EFT\\');
    expect(defaultScreenshotsDir({ ...env, exists })).toBe('C:\\Users\\me\\OneDrive\\Documents\\Escape from Tarkov\\Screenshots');
    expect(defaultLogsDir({ ...env, exists })).toBe('C:\\Battlestate Games\\EFT\\Logs');
  });

  it('on Linux and macOS: Documents under HOME, and no logs unless given', () => {
    const l = parseArgs([], linux);
    expect(l.help === false && l.screenshots).toBe('/home/me/Documents/Escape from Tarkov/Screenshots');
    expect(l.help === false && l.logs).toBeNull();
    const m = parseArgs([], mac);
    expect(m.help === false && m.screenshots).toBe('/Users/me/Documents/Escape from Tarkov/Screenshots');
    expect(m.help === false && m.logs).toBeNull();
  });

  it('keeps the pairing in the per-OS config folder', () => {
    expect(stateFilePath('win32', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'C:\\Users\\me')).toBe('C:\\Users\\me\\AppData\\Roaming\\raidmap\\pilot.json');
    expect(stateFilePath('darwin', {}, '/Users/me')).toBe('/Users/me/Library/Application Support/raidmap/pilot.json');
    expect(stateFilePath('linux', {}, '/home/me')).toBe('/home/me/.config/raidmap/pilot.json');
    expect(stateFilePath('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/me')).toBe('/cfg/raidmap/pilot.json');
  });
});

describe('parseArgs options', () => {
  it('reads every option, in both --flag value and --flag=value forms', () => {
    const parsed = parseArgs(
      ['--server=https://maps.example.org/raid/', '--screenshots', '/shots', '--logs', '/logs', '--code', 'abcde-fghjk', '--token', 'secret', '--delete'],
      linux,
    );
    expect(parsed).toEqual({
      help: false,
      server: 'https://maps.example.org/raid',
      screenshots: '/shots',
      logs: '/logs',
      pairing: { code: 'ABCDEFGHJK', token: 'secret' },
      deleteScreenshots: true,
    });
  });

  it('resolves relative folders, on Windows with Windows paths', () => {
    const parsed = parseArgs(['--screenshots', 'D:\\shots'], win);
    expect(parsed.help === false && parsed.screenshots).toBe('D:\\shots');
  });

  it('answers help', () => {
    expect(parseArgs(['--help'], linux)).toEqual({ help: true });
    expect(parseArgs(['-h'], linux)).toEqual({ help: true });
    expect(USAGE).toMatch(/--screenshots DIR/);
  });

  it.each([
    [['--code', 'ABCDE-FGHJK'], /--code and --token go together/],
    [['--token', 'secret'], /--code and --token go together/],
    [['--code', 'ABCDE-FGHJ0', '--token', 't'], /--code has "0"/],
    [['--code', 'ABC', '--token', 't'], /--code must be 10 characters/],
    [['--server', 'not a url'], /--server: "not a url" is not a URL/],
    [['--server', 'ftp://example.org'], /http:\/\/ or https:\/\//],
    [['--server', 'http://example.org/?x=1'], /without \? or #/],
    [['--screenshots'], /--screenshots needs a value/],
    [['--screenshots', '--delete'], /--screenshots needs a value/],
    [['--logs='], /--logs needs a value/],
    [['--server', 'http://a', '--server', 'http://b'], /given twice/],
    [['--verbose'], /unknown option --verbose/],
    [['stray'], /unexpected argument stray/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArgs(argv, linux)).toThrow(UsageError);
    expect(() => parseArgs(argv, linux)).toThrow(message);
  });
});
