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
  // What stays on the main thread when the map is drawn in a worker (docs/ENGINE-WORKER.md):
  // input, the state tree, the camera, the marker placement and the hit index need no renderer.
  // (Imports of imports: src/engine/worker-engine.imports.test.ts walks the whole graph.)
  {
    files: [
      'src/engine/kernels/**', 'src/engine/interaction/**', 'src/engine/camera.ts', 'src/engine/input.ts', 'src/engine/hit-index.ts',
      'src/engine/marker-placement.ts', 'src/engine/marker-draw-list.ts', 'src/engine/frame-loop.ts', 'src/engine/emitter.ts',
      'src/engine/map-engine.ts', 'src/engine/scene-driver.ts', 'src/engine/worker-engine.ts', 'src/engine/engine-options.ts',
      'src/engine/icon-atlas-image.ts', 'src/engine/render-worker/protocol.ts', 'src/engine/render-worker/worker-scene.ts',
    ],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...uiLayers, '**/tools/**', 'pixi.js', 'pixi.js/*'], message: 'the main-thread side of the engine imports no renderer (docs/ENGINE-WORKER.md), nor UI, state, API code or concrete tools' }] }],
    },
  },
  {
    files: ['src/domain/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: [...uiLayers, 'pixi.js', '**/engine/**'], message: 'domain is pure TypeScript' }] }],
    },
  },
);
