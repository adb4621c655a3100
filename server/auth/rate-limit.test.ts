import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config';
import { addressKey, authLimitsFromEnv, DEFAULT_AUTH_LIMITS, loginDelayMs, parseRule, secondsUntil } from './rate-limit';

describe('rate-limit rules', () => {
  it('parses a count per time, or off', () => {
    expect(parseRule('5/15m')).toEqual({ max: 5, windowMs: 15 * 60_000 });
    expect(parseRule(' 30 / 1h ')).toEqual({ max: 30, windowMs: 3_600_000 });
    expect(parseRule('10/30s')).toEqual({ max: 10, windowMs: 30_000 });
    expect(parseRule('OFF')).toBeNull();
    for (const bad of ['', '5', '0/1m', '5/0s', '-1/1m', '5/1d', 'five/1m', '5/1m extra']) expect(() => parseRule(bad), bad).toThrow(/count per time/);
  });

  it('reads the environment, keeps defaults for unset variables and names a bad one', () => {
    expect(authLimitsFromEnv({})).toEqual(DEFAULT_AUTH_LIMITS);
    const limits = authLimitsFromEnv({ RATE_LIMIT_LOGIN_PAIR: '3/10m', RATE_LIMIT_SIGNUP: 'off', LOGIN_DELAY_MAX_MS: '5000' });
    expect(limits.loginPair).toEqual({ max: 3, windowMs: 600_000 });
    expect(limits.signUpAll).toBeNull();
    expect(limits.loginDelayMaxMs).toBe(5000);
    expect(limits.signUpAddress).toEqual(DEFAULT_AUTH_LIMITS.signUpAddress);
    expect(() => authLimitsFromEnv({ RATE_LIMIT_SIGNUP_ADDRESS: 'lots' })).toThrow(ConfigError);
    expect(() => authLimitsFromEnv({ RATE_LIMIT_SIGNUP_ADDRESS: 'lots' })).toThrow(/RATE_LIMIT_SIGNUP_ADDRESS/);
    expect(() => authLimitsFromEnv({ LOGIN_DELAY_STEP_MS: '-1' })).toThrow(/LOGIN_DELAY_STEP_MS/);
    expect(() => authLimitsFromEnv({ LOGIN_DELAY_MAX_MS: '1.5' })).toThrow(/LOGIN_DELAY_MAX_MS/);
  });

  it('never slows an address that has not failed; doubles the wait per failure up to the cap', () => {
    const limits = DEFAULT_AUTH_LIMITS;
    expect(loginDelayMs(0, 0, limits)).toBe(0);
    // Not even while the account is under attack from elsewhere.
    expect(loginDelayMs(0, 1000, limits)).toBe(0);
    expect([1, 2, 3, 4, 5, 6, 50].map((failures) => loginDelayMs(failures, 0, limits))).toEqual([250, 500, 1000, 2000, 2000, 2000, 2000]);
    // Over the account's limit, a failing address waits the longest at once.
    expect(loginDelayMs(1, limits.loginAccount!.max + 1, limits)).toBe(limits.loginDelayMaxMs);
    expect(loginDelayMs(1, limits.loginAccount!.max, limits)).toBe(250);
    expect(loginDelayMs(3, 100, { ...limits, loginAccount: null })).toBe(1000);
    expect(loginDelayMs(3, 0, { ...limits, loginDelayStepMs: 0 })).toBe(0);
  });

  it('counts an IPv4 address as it is and an IPv6 address by its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::ffff')).toBe(addressKey('2001:db8:1:2:9:9:9:9'));
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    // Not an address (a misconfigured proxy header): counted as the text it is.
    expect(addressKey('1:2:3')).toBe('1:2:3');
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(secondsUntil(10_001, 0)).toBe(11);
    expect(secondsUntil(5, 10)).toBe(1);
  });
});
