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
});
