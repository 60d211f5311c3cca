import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('config', () => {
  it('has defaults for an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: './.data',
      logLevel: 'info',
    });
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
      expect(message).toContain('ADMIN_TOKEN: must be at least 24 characters with at least 10 different ones (make one with: openssl rand -base64 32) (got (hidden))');
      expect(message).toContain('(got "abc")');
    }
  });

  it('refuses a weak ADMIN_TOKEN: too short, or long but of few different characters', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ ADMIN_TOKEN: 'a1b2c3d4e5f6g7h8i9j0k1l' })).toEqual([expect.stringContaining('ADMIN_TOKEN: must be at least 24 characters')]);
    expect(problems({ ADMIN_TOKEN: 'abcabcabcabcabcabcabcabcabcabcabcabc' })).toEqual([expect.stringContaining('with at least 10 different ones')]);
    expect(problems({ ADMIN_TOKEN: 'a1b2c3d4e5f6g7h8i9j0k1l2' })).toEqual([]);
    expect(loadConfig({ ADMIN_TOKEN: 'a1b2c3d4e5f6g7h8i9j0k1l2' }).signingKeyGraceMs).toBe(24 * 3_600_000);
    expect(loadConfig({ SIGNING_KEY_GRACE_HOURS: '2' }).signingKeyGraceMs).toBe(2 * 3_600_000);
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

describe('config: PostgreSQL past one server', () => {
  it('reads the direct URL, the replicas (comma-separated) and their lag bound; none of them by default', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@pooler:6432/db' }).db).toMatchObject({
      directUrl: undefined,
      replicaUrls: [],
      replicaMaxLagMs: 1000,
    });
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@pooler:6432/db',
      DATABASE_DIRECT_URL: 'postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write',
      DATABASE_REPLICA_URLS: ' postgres://u@r1:5432/db , postgresql://u@r2/db,',
      REPLICA_MAX_LAG_MS: '250',
    });
    expect(config.db).toMatchObject({
      directUrl: 'postgres://u@h1:5432,h2:5432/db?target_session_attrs=read-write',
      replicaUrls: ['postgres://u@r1:5432/db', 'postgresql://u@r2/db'],
      replicaMaxLagMs: 250,
    });
  });

  it('refuses them without DATABASE_URL, and bad values, naming each and hiding the URLs', () => {
    let error: unknown;
    try {
      loadConfig({
        DATABASE_DIRECT_URL: 'postgres://u:hunter2@h1/db',
        DATABASE_REPLICA_URLS: 'mysql://u:hunter2@r1/db',
        REPLICA_MAX_LAG_MS: '-1',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['DATABASE_DIRECT_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_REPLICA_URLS.0', 'REPLICA_MAX_LAG_MS']);
    expect(message).toContain('DATABASE_DIRECT_URL: needs DATABASE_URL (PostgreSQL) too');
    expect(message).not.toContain('hunter2');
  });

  it('reads the mail settings: none by default, the webhooks retry schedule, PUBLIC_URL from HOST and PORT', () => {
    const defaults = loadConfig({ HOST: '0.0.0.0', PORT: '8080', WEBHOOK_RETRY_SCHEDULE: '1s,2s' }).mail;
    expect(defaults).toEqual({
      smtp: undefined,
      from: 'formloom <notifications@0.0.0.0>',
      retryDelaysMs: [1_000, 2_000],
      publicUrl: 'http://0.0.0.0:8080',
    });
    const set = loadConfig({
      SMTP_URL: 'smtps://mailer:p%40ss@smtp.example.com:465',
      SMTP_REQUIRE_TLS: '0',
      MAIL_FROM: 'Acme Forms <forms@acme.example>',
      MAIL_RETRY_SCHEDULE: '30s,5m',
      PUBLIC_URL: 'https://forms.acme.example/',
    }).mail;
    expect(set).toEqual({
      smtp: { url: 'smtps://mailer:p%40ss@smtp.example.com:465', requireTls: false },
      from: 'Acme Forms <forms@acme.example>',
      retryDelaysMs: [30_000, 300_000],
      publicUrl: 'https://forms.acme.example',
    });
  });

  it('refuses bad mail settings, hiding the SMTP URL (it holds the password)', () => {
    let message = '';
    try {
      loadConfig({
        SMTP_URL: 'http://mailer:hunter2@smtp.example.com',
        MAIL_FROM: 'a@b.example\r\nBcc: x@y.example',
        MAIL_RETRY_SCHEDULE: 'soon',
        PUBLIC_URL: 'ftp://x',
      });
    } catch (error) {
      message = (error as ConfigError).message;
      expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['MAIL_FROM', 'MAIL_RETRY_SCHEDULE', 'PUBLIC_URL', 'SMTP_URL']);
    }
    expect(message).toContain('SMTP_URL: must be smtp://');
    expect(message).not.toContain('hunter2');
  });
});
