import tseslint from 'typescript-eslint';

const uiLayers = ['**/ui/**', '**/state/**', '**/api/**', 'react', 'react-dom', 'valtio', 'valtio/*'];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'tmp-try/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Layers are enforced by imports: the domain, the engine and the workers know nothing of the UI.
  {
    files: ['src/domain/**', 'src/engine/**', 'src/tools/**', 'workers/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: uiLayers, message: 'domain/engine/tools/workers must not import UI, state or API code' }] }],
    },
  },
  // The engine hosts the interaction machinery; the concrete tools (src/tools) plug into it, never the other way round.
  {
    files: ['src/engine/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...uiLayers, '**/tools/**'], message: 'the engine must not import UI, state, API code or concrete tools' }] }],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...uiLayers, 'pixi.js', '**/engine/**'], message: 'domain is pure TypeScript' }] }],
    },
  },
);
