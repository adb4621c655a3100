import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './testing/databases';
import { checkWritableFolder } from './writable-folder';

describe('checkWritableFolder', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a missing folder and leaves nothing in it', () => {
    const root = tempDir();
    dirs.push(root);
    const folder = path.join(root, 'a', 'tiles');
    checkWritableFolder(folder);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('throws the file system error with the folder as its path (what startupProblem says)', () => {
    const root = tempDir();
    dirs.push(root);
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => checkWritableFolder(path.join(file, 'tiles'))).toThrow(expect.objectContaining({ code: 'ENOTDIR', path: path.join(file, 'tiles') }));
    expect(() => checkWritableFolder(file)).toThrow(expect.objectContaining({ code: 'EEXIST', path: file }));
  });
});
