import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('has defaults for an empty environment', () => {
    expect(loadConfig({})).toMatchObject({ port: 4000, host: '127.0.0.1', databaseUrl: undefined, dataDir: './.data', logLevel: 'info' });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 4000, databaseUrl: undefined });
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', ADMIN_TOKEN: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(names.sort()).toEqual(['ADMIN_TOKEN', 'DATABASE_URL', 'LOG_LEVEL', 'PORT']);
  });

  it('does not repeat the values of secret variables in its message', () => {
    expect(() => loadConfig({ ADMIN_TOKEN: 'short', REDIS_URL: 'http://user:hunter2@redis' })).toThrow(ConfigError);
    try {
      loadConfig({ ADMIN_TOKEN: 'short', REDIS_URL: 'http://user:hunter2@redis', PORT: 'abc' });
    } catch (error) {
      const message = (error as ConfigError).message;
      expect(message).not.toContain('short');
      expect(message).not.toContain('hunter2');
      expect(message).toContain('ADMIN_TOKEN: must be at least 16 characters (got (hidden))');
      expect(message).toContain('(got "abc")');
    }
  });

  it('keeps the drain delay inside the shutdown timeout', () => {
    expect(loadConfig({})).toMatchObject({ shutdownTimeoutMs: 10_000, drainDelayMs: 5_000 });
    // Unset, it shrinks with a short timeout (an existing SHUTDOWN_TIMEOUT_MS keeps starting).
    expect(loadConfig({ SHUTDOWN_TIMEOUT_MS: '3000' })).toMatchObject({ drainDelayMs: 1_500 });
    expect(loadConfig({ DRAIN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '0' })).toMatchObject({ drainDelayMs: 0 });
    expect(() => loadConfig({ DRAIN_DELAY_MS: '10000' })).toThrow(/DRAIN_DELAY_MS: must be shorter than SHUTDOWN_TIMEOUT_MS \(10000\) \(got "10000"\)/);
  });

  it('reads the live feed limits', () => {
    expect(loadConfig({}).subscriptions).toEqual({ bufferSize: 100, maxPerKey: 20, maxLifetimeMs: 3_600_000 });
    expect(loadConfig({ SUBSCRIPTION_MAX_PER_KEY: '0', SUBSCRIPTION_MAX_LIFETIME: '90s' }).subscriptions).toMatchObject({ maxPerKey: 0, maxLifetimeMs: 90_000 });
    expect(() => loadConfig({ SUBSCRIPTION_MAX_LIFETIME: '500ms' })).toThrow(/SUBSCRIPTION_MAX_LIFETIME: must be a duration from 1s to 24h/);
    expect(() => loadConfig({ SUBSCRIPTION_MAX_PER_KEY: '-1' })).toThrow(/SUBSCRIPTION_MAX_PER_KEY/);
  });
});
