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
});
