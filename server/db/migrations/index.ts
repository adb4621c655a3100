/**
 * The in-code migration provider: every migration, keyed by a name that sorts in the order
 * they must run. Add a new file `000N_what.ts` and list it here; never edit a released one.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { init } from './0001_init';
import { users } from './0002_users';
import { markerVersions } from './0003_marker_versions';
import { rateLimits } from './0004_rate_limits';
import { pilotPairings } from './0005_pilot_pairings';

export const MIGRATIONS: Record<string, Migration> = {
  '0001_init': init,
  '0002_users': users,
  '0003_marker_versions': markerVersions,
  '0004_rate_limits': rateLimits,
  '0005_pilot_pairings': pilotPairings,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS;
  },
};
