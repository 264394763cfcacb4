import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      databasePoolSize: undefined,
      redisUrl: undefined,
      demoData: true,
      brandName: 'Boardwalk',
      parkTimezone: 'America/Los_Angeles',
      trustProxy: false,
      metricsToken: undefined,
    });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.integrationApiKeys.size).toBe(0);
    expect(c.ticketShareMailsPerDay).toBe(20);
    expect(loadConfig({ TICKET_SHARE_MAILS_PER_DAY: '5' }).ticketShareMailsPerDay).toBe(5);
    expect(c.loyalty.pointsExpireMonths).toBe(12);
    expect(loadConfig({ LOYALTY_POINTS_EXPIRE_MONTHS: '0' }).loyalty.pointsExpireMonths).toBe(0);
    expect(loadConfig({ LOYALTY_POINTS_EXPIRE_MONTHS: '24' }).loyalty.pointsExpireMonths).toBe(24);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://passes.example.com/',
      DATABASE_URL: 'postgres://u@db/boardwalk',
      DATABASE_POOL_SIZE: '8',
      REDIS_URL: 'redis://cache:6379',
      INTEGRATION_API_KEYS: 'ticketing:0123456789abcdef0123, gate:fedcba9876543210fedc',
      DEMO_DATA: 'false',
      TRUST_PROXY: '10.0.0.0/8',
      BRAND_NAME: 'Pier Park',
      SUPPORT_EMAIL: 'help@example.com',
      METRICS_TOKEN: 'scrape-0123456789abcdef',
    });
    expect(c.metricsToken).toBe('scrape-0123456789abcdef');
    expect(c.publicUrl).toBe('https://passes.example.com');
    expect(c.port).toBe(8080);
    expect(c.databasePoolSize).toBe(8);
    expect([...c.integrationApiKeys.keys()]).toEqual(['ticketing', 'gate']);
    expect(c.integrationApiKeys.get('gate')).toMatchObject({ secret: 'fedcba9876543210fedc', unscoped: true });
    expect(c.demoData).toBe(false);
    expect(c.trustProxy).toBe('10.0.0.0/8');
  });

  it('reads scoped integration keys (name:secret:scope+scope); an old-style key holds every scope', () => {
    const keys = loadConfig({
      INTEGRATION_API_KEYS: 'till:0123456789abcdef0123:members+redeem+reverse, old:fedcba9876543210fedc',
    }).integrationApiKeys;
    expect(keys.get('till')).toEqual({
      name: 'till',
      secret: '0123456789abcdef0123',
      scopes: new Set(['members', 'redeem', 'reverse']),
      unscoped: false,
    });
    expect(keys.get('old')).toMatchObject({ unscoped: true });
    expect(keys.get('old')!.scopes.size).toBe(11);
  });

  it('refuses a key whose last part is not scopes (rather than read a secret with a colon), naming the scopes', () => {
    expect(() => loadConfig({ INTEGRATION_API_KEYS: 'old:fedcba9876543210:fedc' })).toThrow(/unknown scopes \("fedc"\).*orders, checks/);
    const old = loadConfig({ INTEGRATION_API_KEYS: 'old:fedcba9876543210fedc' }).integrationApiKeys.get('old')!;
    expect(old.unscoped).toBe(true);
    expect([...old.scopes]).toEqual([
      'orders',
      'checks',
      'reservations',
      'usage',
      'wristbands',
      'members',
      'redeem',
      'reverse',
      'reverse-any',
      'events',
      'visits',
    ]);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_POOL_SIZE', '1'],
    ['DATABASE_POOL_SIZE', '101'],
    ['DATABASE_POOL_SIZE', '2.5'],
    ['DATABASE_POOL_SIZE', 'many'],
    ['REDIS_URL', 'localhost:6379'],
    ['INTEGRATION_API_KEYS', 'nocolon'],
    ['INTEGRATION_API_KEYS', 'short:secret'],
    ['INTEGRATION_API_KEYS', 'till:0123456789abcdef0123:members+fly'],
    ['INTEGRATION_API_KEYS', 'till:0123456789abcdef0123:'],
    ['INTEGRATION_API_KEYS', 'till:0123456789abcdef0123:redeem,till:fedcba9876543210fedc:members'],
    ['INTEGRATION_API_KEYS', 'a till:0123456789abcdef0123:redeem'],
    ['DEMO_DATA', 'yes'],
    ['PARK_TIMEZONE', 'Mars/Olympus'],
    ['SUPPORT_EMAIL', 'not-an-email'],
    ['PUBLIC_URL', 'passes'],
    ['SMTP_URL', 'http://mail'],
    ['APPLE_PASS_TYPE_ID', 'com.example.pass'],
    ['APPLE_TEAM_ID', 'team'],
    ['APNS_URL', 'push'],
    ['GOOGLE_WALLET_ISSUER_ID', 'issuer'],
    ['GOOGLE_WALLET_API_URL', 'wallet'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'has a space in it 0123456789'],
    ['TICKET_SHARE_MAILS_PER_DAY', '0'],
    ['TICKET_SHARE_MAILS_PER_DAY', '1001'],
    ['TICKET_SHARE_MAILS_PER_DAY', '2.5'],
    ['TICKET_SHARE_MAILS_PER_DAY', 'many'],
    ['METRICS_PUBLIC', 'yes'],
    ['LOYALTY_POINTS_EXPIRE_MONTHS', '-1'],
    ['LOYALTY_POINTS_EXPIRE_MONTHS', '1.5'],
    ['LOYALTY_POINTS_EXPIRE_MONTHS', '121'],
    ['LOYALTY_POINTS_EXPIRE_MONTHS', 'a year'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}:`));
  });
});

describe('/metrics settings', () => {
  it('is open by default outside production, closed in production unless METRICS_PUBLIC=true', () => {
    expect(loadConfig({})).toMatchObject({ production: false, metricsPublic: false, metricsToken: undefined });
    expect(loadConfig({ NODE_ENV: 'development' }).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ production: true, metricsPublic: false });
    expect(loadConfig({ NODE_ENV: 'production', METRICS_PUBLIC: 'true' }).metricsPublic).toBe(true);
  });

  it('refuses METRICS_TOKEN with METRICS_PUBLIC=true, naming both', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'scrape-0123456789abcdef', METRICS_PUBLIC: 'true' })).toThrow(
      /METRICS_TOKEN, METRICS_PUBLIC: set METRICS_TOKEN to guard \/metrics or METRICS_PUBLIC=true to open it, not both/,
    );
    expect(loadConfig({ METRICS_TOKEN: 'scrape-0123456789abcdef', METRICS_PUBLIC: 'false' }).metricsToken).toBe('scrape-0123456789abcdef');
  });
});

describe('server start', () => {
  it('reads the delivery settings, with their defaults and bounds', () => {
    expect(loadConfig({}).deliveries).toEqual({
      workers: true,
      coalesceSeconds: 2,
      retryLimit: 8,
      retryDelaySeconds: 5,
      expireSeconds: 30,
      pollSeconds: 1,
    });
    const c = loadConfig({
      DELIVERY_WORKERS: 'false',
      DELIVERY_COALESCE_SECONDS: '0',
      DELIVERY_RETRY_LIMIT: '3',
      DELIVERY_RETRY_DELAY_SECONDS: '10',
      DELIVERY_EXPIRE_SECONDS: '60',
      DELIVERY_POLL_SECONDS: '0.5',
    });
    expect(c.deliveries).toEqual({
      workers: false,
      coalesceSeconds: 0,
      retryLimit: 3,
      retryDelaySeconds: 10,
      expireSeconds: 60,
      pollSeconds: 0.5,
    });
    for (const [name, value] of [
      ['DELIVERY_WORKERS', 'yes'],
      ['DELIVERY_COALESCE_SECONDS', '61'],
      ['DELIVERY_RETRY_LIMIT', '-1'],
      ['DELIVERY_RETRY_DELAY_SECONDS', '0'],
      ['DELIVERY_EXPIRE_SECONDS', '4'],
      ['DELIVERY_POLL_SECONDS', '0.1'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(new RegExp(name));
    }
  });

  it('uses development wallet credentials unless all Apple files and both Google settings are given', () => {
    const dev = loadConfig({});
    expect(dev.apple).toMatchObject({ passTypeId: 'pass.com.boardwalk.demo', certFile: undefined, apnsUrl: undefined });
    expect(dev.google).toMatchObject({ issuerId: undefined, apiUrl: 'https://walletobjects.googleapis.com/walletobjects/v1' });
    const real = loadConfig({
      APPLE_CERT_FILE: 'cert.pem',
      APPLE_KEY_FILE: 'key.pem',
      APPLE_WWDR_FILE: 'wwdr.pem',
      GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
      GOOGLE_WALLET_KEY_FILE: 'sa.json',
    });
    // Operator certificates turn APNs on against Apple's own host.
    expect(real.apple.apnsUrl).toBe('https://api.push.apple.com');
    expect(real.google.issuerId).toBe('3388000000012345678');
    expect(() => loadConfig({ APPLE_CERT_FILE: 'cert.pem' })).toThrow(
      /APPLE_CERT_FILE, APPLE_KEY_FILE, APPLE_WWDR_FILE: set all three or none/,
    );
    expect(() => loadConfig({ GOOGLE_WALLET_KEY_FILE: 'sa.json' })).toThrow(
      /GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_KEY_FILE: set both or neither/,
    );
  });
});
