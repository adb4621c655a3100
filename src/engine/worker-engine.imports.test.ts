/**
 * The page's side of a worker-drawn map loads no PixiJS (docs/ENGINE-WORKER.md): every module
 * that worker-engine.ts imports, and what those import, down the whole graph, is free of it. The
 * ESLint rule sees one file's own imports; this sees the imports of imports (a re-export from a
 * module that imports the tile layer once put all of PixiJS in the page's chunk).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

/** Specifiers of a module's static imports and re-exports that load code (no `import type`, no `import()`). */
export function staticImports(source: string): string[] {
  const out: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gm;
  for (const m of source.matchAll(statement)) {
    if (m[2]) continue;
    // `import { type A, type B } from` loads nothing either.
    const names = m[3].trim();
    if (/^\{[^}]*\}$/.test(names) && names.slice(1, -1).split(',').every((n) => n.trim() === '' || /^type\s/.test(n.trim()))) continue;
    out.push(m[4]);
  }
  for (const m of source.matchAll(/^\s*import\s+'([^']+)'/gm)) out.push(m[1]);
  return out;
}

function resolveModule(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // next candidate
    }
  }
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/** Every package a module loads, through its whole static graph, with the path that led to it. */
function packagesOf(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, path: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      const next = resolveModule(file, specifier);
      if (next) walk(next, [...path, next.slice(here.length + 1)]);
      else if (!packages.has(specifier)) packages.set(specifier, path);
    }
  };
  walk(entry, ['worker-engine.ts']);
  return packages;
}

describe('the page side of a worker-drawn map', () => {
  it('reads the imports that load code, not type-only ones', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from './b';",
      "import { type C, type D } from './c';",
      "import { type E, f } from './e';",
      "export { g } from './g';",
      "export type { H } from './h';",
      "import './side-effect';",
      "const lazy = () => import('./lazy');",
    ].join('\n');
    expect(staticImports(source)).toEqual(['./a', './e', './g', './side-effect']);
  });

  it('loads no PixiJS through any import of an import', () => {
    const packages = packagesOf(resolve(here, 'worker-engine.ts'));
    const pixi = [...packages].filter(([name]) => name.startsWith('pixi.js'));
    expect(pixi.map(([name, path]) => `${name} via ${path.join(' → ')}`)).toEqual([]);
    // The walk did reach the engine's main-thread modules.
    expect(packages.has('rbush')).toBe(true);
  });
});
