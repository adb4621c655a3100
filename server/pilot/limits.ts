/**
 * The live position feed's limits (docs/PILOT.md "Limits", docs/SERVER.md settings): new
 * pairings per client address, and failed guesses (unknown codes, wrong publisher tokens) per
 * client address. The counters are rows of `rate_limits` (server/db/rate-limits.ts), so every
 * server process on one database shares them, like the sign-in limits.
 */
import { ConfigError } from '../config';
import { parseRule, type RateLimitRule } from '../auth/rate-limit';

export interface PilotLimits {
  /** Pairings created from one address (RATE_LIMIT_PILOT_PAIRINGS). */
  pairings: RateLimitRule | null;
  /**
   * Different failed guesses from one address (RATE_LIMIT_PILOT_GUESSES): unknown codes, wrong
   * or missing tokens, each different one counted once per window (routes.ts `failedGuess`).
   */
  guesses: RateLimitRule | null;
}

const MINUTE = 60_000;

export const DEFAULT_PILOT_LIMITS: PilotLimits = {
  pairings: { max: 30, windowMs: 60 * MINUTE },
  guesses: { max: 20, windowMs: 10 * MINUTE },
};

/** The limits from the environment; unset or empty variables keep the defaults. */
export function pilotLimitsFromEnv(env: NodeJS.ProcessEnv): PilotLimits {
  const rule = (name: string, fallback: RateLimitRule | null) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    try {
      return parseRule(raw);
    } catch (error) {
      throw new ConfigError(name, (error as Error).message);
    }
  };
  return {
    pairings: rule('RATE_LIMIT_PILOT_PAIRINGS', DEFAULT_PILOT_LIMITS.pairings),
    guesses: rule('RATE_LIMIT_PILOT_GUESSES', DEFAULT_PILOT_LIMITS.guesses),
  };
}
