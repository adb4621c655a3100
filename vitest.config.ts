import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx', 'tests/**/*.test.tsx'],
          setupFiles: ['tests/setup-dom.ts'],
          // Generous: on a shared 2-core machine a render-heavy test can take seconds; a hang still fails.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
