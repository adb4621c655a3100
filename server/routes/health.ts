/**
 * GET /api/be/health → `{ status: 'ok', tiles: { ready, done, total } }`. The tile progress
 * comes from the background build that server/main.ts runs.
 */
import type { FastifyInstance } from 'fastify';

export interface TileProgress {
  ready: boolean;
  done: number;
  total: number;
}

export interface HealthRoutesOptions {
  tileProgress: () => TileProgress;
}

export async function healthRoutes(app: FastifyInstance, { tileProgress }: HealthRoutesOptions): Promise<void> {
  app.get('/api/be/health', async (_request, reply) => {
    const { ready, done, total } = tileProgress();
    return reply.header('cache-control', 'no-store').send({ status: 'ok', tiles: { ready, done, total } });
  });
}
