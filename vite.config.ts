import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pixiLazyCanvasProbe } from './scripts/vite/pixi-lazy-canvas-probe.ts';
import { pixiLazySegmenter } from './scripts/vite/pixi-lazy-segmenter.ts';
import { precompress } from './scripts/vite/precompress.ts';

const api = `http://127.0.0.1:${process.env.API_PORT ?? 8080}`;

/**
 * React Router's production build. Its package's `exports` name only its development build, for
 * production too (remix-run/react-router#14102, open), so the built site ran React Router's
 * development warnings and checks. The production files ship in the same package. Its time in a
 * map page's first second did not change measurably (docs/PERFORMANCE.md, "Eighth session").
 * `npm run dev` and the tests keep the development build.
 */
const reactRouterProduction = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));

export default defineConfig(({ command }) => ({
  // pixiLazySegmenter: PixiJS makes no Intl.Segmenter as it loads (src/engine/kernels/graphemes.ts).
  // pixiLazyCanvasProbe: PixiJS reads no canvas pixels as it loads (its canvas renderer's probe, on first use).
  // precompress: .br and .gz beside each built asset, sent as they are by the server.
  plugins: [react(), pixiLazySegmenter(), pixiLazyCanvasProbe(), precompress()],
  publicDir: 'assets/public',
  worker: { format: 'es' },
  resolve: { alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [] },
  // manifest: the server names the engine's chunks in a map page's head (server/http/module-preloads.ts).
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    manifest: true,
    // Rolldown's PLUGIN_TIMINGS note names precompress's brotli pass (scripts/vite/precompress.ts),
    // a cost paid on purpose once per build (about 5 s on a busy machine): `npm start` printed a
    // dozen lines about it whenever the machine was loaded.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  // `npm run dev` serves the UI with hot reload and sends API, tile and icon calls to `npm run serve`.
  server: {
    proxy: { '/api': api, '/tiles': api, '/icons': api, '/uploads': api, '/public-images': api },
  },
}));
