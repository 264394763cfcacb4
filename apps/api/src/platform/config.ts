// Configuration from the environment, validated at start: a bad value stops the server with a
// message naming the variable. The names are fixed, since operators and scripts rely on them;
// docs/configuration.md describes each.
import { resolve } from 'node:path';
import { z } from 'zod';
import { INTEGRATION_SCOPES, type IntegrationScope } from '@boardwalk/contract/integrations';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
const optionalText = z.string().trim().min(1).optional();
const hexColor = z.string().regex(/^[0-9a-fA-F]{6}$/, 'must be 6 hex digits without #');
/** A retention period in whole days; 0 keeps the data. */
const retentionDays = (fallback: number) =>
  z.coerce.number().int('must be whole days').min(0, 'must be 0 (keep) or more').max(3650, 'must be at most 3650 days').default(fallback);

/** One integration key of INTEGRATION_API_KEYS: its name (the system it records as the cause), its secret, what it may call. */
export interface IntegrationKeyConfig {
  name: string;
  secret: string;
  scopes: ReadonlySet<IntegrationScope>;
  /** Written the old way (`name:secret`, no scopes): it may call every scope, and the server warns at start. */
  unscoped: boolean;
}

const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;
const KEY_FORM = 'must be name:secret:scope+scope (or the old name:secret), each secret at least 16 characters';

/**
 * `name:secret:scope+scope+…`, or the old `name:secret` (every scope). The secret may not hold
 * a colon in the new form; in the old form (one colon) it may. Answers why not, in words.
 */
export function parseIntegrationKey(item: string): IntegrationKeyConfig | string {
  const first = item.indexOf(':');
  const last = item.lastIndexOf(':');
  const name = item.slice(0, Math.max(first, 0));
  const unscoped = first === last;
  const secret = unscoped ? item.slice(first + 1) : item.slice(first + 1, last);
  if (first < 1 || secret.length < 16) return KEY_FORM;
  if (!KEY_NAME.test(name)) return `the key name "${name}" must be letters, digits, ".", "_" or "-" (at most 40)`;
  if (unscoped) return { name, secret, scopes: new Set(INTEGRATION_SCOPES), unscoped };
  const scopes = item
    .slice(last + 1)
    .split('+')
    .map((s) => s.trim());
  const unknown = scopes.filter((s) => !(INTEGRATION_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    return `the key "${name}" names unknown scopes (${unknown.map((s) => `"${s}"`).join(', ')}); the scopes are ${INTEGRATION_SCOPES.join(', ')}`;
  }
  return { name, secret, scopes: new Set(scopes as IntegrationScope[]), unscoped };
}

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  WEB_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce
    .number()
    .int('must be a whole number')
    .min(2, 'must be at least 2 (the job queue keeps one connection for requests)')
    .max(100, 'must be at most 100')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  INTEGRATION_API_KEYS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const keys = new Map<string, IntegrationKeyConfig>();
      for (const item of (v ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const parsed = parseIntegrationKey(item);
        if (typeof parsed === 'string') {
          ctx.addIssue({ code: 'custom', message: parsed });
          return z.NEVER;
        }
        if (keys.has(parsed.name)) {
          ctx.addIssue({ code: 'custom', message: `the key name "${parsed.name}" is used twice` });
          return z.NEVER;
        }
        keys.set(parsed.name, parsed);
      }
      return keys;
    }),
  DEMO_DATA: bool(true),
  DEMO_HISTORY: bool(true),
  DEMO_TODAY: z.iso
    .date({ error: 'must be a date, e.g. 2026-11-21' })
    .optional()
    .describe('The operating day the demo dates are placed around (default: today); fixed for reproducible screenshots and tests'),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  TEAM_EMAIL: z.email().optional(),
  SUPPORT_EMAIL: z.email().default('guestservices@example.com'),
  BRAND_NAME: z.string().trim().min(1).max(60).default('Boardwalk'),
  PARK_TIMEZONE: z
    .string()
    .default('America/Los_Angeles')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as America/Los_Angeles'),
  TRUST_PROXY: optionalText.transform((v) => {
    if (v === undefined || v === 'false') return false;
    if (v === 'true') return true;
    return v; // addresses or CIDR ranges, comma-separated
  }),
  PASS_BACKGROUND_COLOR: hexColor.default('1b4965'),
  PASS_FOREGROUND_COLOR: hexColor.default('ffffff'),
  // Apple Wallet: PEM files; unset means a development chain in DATA_DIR/certs.
  APPLE_PASS_TYPE_ID: z
    .string()
    .regex(/^pass\.[A-Za-z0-9.-]+$/, 'must look like pass.com.example.boardwalk')
    .default('pass.com.boardwalk.demo'),
  APPLE_TEAM_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'must be a 10-character Apple team id')
    .default('BWDEMO0001'),
  APPLE_CERT_FILE: optionalText.describe('signer certificate (PEM)'),
  APPLE_KEY_FILE: optionalText.describe('signer private key (PEM)'),
  APPLE_KEY_PASSPHRASE: optionalText,
  APPLE_WWDR_FILE: optionalText.describe('Apple WWDR intermediate certificate (PEM)'),
  APPLE_NFC_KEY_FILE: optionalText.describe('NFC P-256 private key (PEM); its public key goes in NFC passes'),
  /** APNs: on when Apple certificates are configured (api.push.apple.com) or when APNS_URL is set. */
  APNS_URL: z.url().optional(),
  APNS_CA_FILE: optionalText.describe('extra CA (PEM) to trust for APNS_URL'),
  APNS_CONNECTIONS: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(16, 'must be at most 16').default(2),
  APPLE_CERT_WARNING_DAYS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(365, 'must be at most 365')
    .default(30)
    .describe('days before the signer certificate expires from which the log and the Deliveries tab warn'),
  PASSKIT_DEVICES_PER_PASS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(10)
    .describe('devices one Apple pass keeps registered; a new one replaces the least recently renewed'),
  // Google Wallet: a service-account key (JSON) and issuer id; unset means a development key.
  GOOGLE_WALLET_ISSUER_ID: z
    .string()
    .regex(/^\d{10,25}$/, 'must be the numeric issuer id')
    .optional(),
  GOOGLE_WALLET_KEY_FILE: optionalText.describe('service-account key (JSON)'),
  GOOGLE_WALLET_API_URL: z.url().default('https://walletobjects.googleapis.com/walletobjects/v1'),
  GOOGLE_WALLET_ROOT_KEYS: optionalText.describe("Google's root keys for save and delete callbacks: an http(s) URL or a file"),
  // Google Smart Tap: the collector id the park's terminals use and the issuer ids that may redeem.
  GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID: z
    .string()
    .regex(/^\d{1,20}$/, 'must be the numeric collector id')
    .optional(),
  GOOGLE_WALLET_SMART_TAP_ISSUERS: z
    .string()
    .regex(/^\d{10,25}(,\d{10,25})*$/, 'must be numeric issuer ids separated by commas')
    .optional(),
  // Google requests per second across every process (the reported quota is about 20 a project).
  GOOGLE_WALLET_REQUESTS_PER_SECOND: z.coerce.number().min(0.1, 'must be at least 0.1').max(1000, 'must be at most 1000').default(15),
  // Deliveries to Apple, Google and SMTP (platform/jobs): pg-boss jobs on the database.
  DELIVERY_WORKERS: bool(true),
  DELIVERY_COALESCE_SECONDS: z.coerce.number().int().min(0).max(60, 'must be at most 60 seconds').default(2),
  DELIVERY_RETRY_LIMIT: z.coerce.number().int().min(0).max(20, 'must be at most 20').default(8),
  DELIVERY_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600, 'must be at most 3600 seconds').default(5),
  DELIVERY_EXPIRE_SECONDS: z.coerce
    .number()
    .int()
    .min(5, 'must be at least 5 seconds')
    .max(3600, 'must be at most 3600 seconds')
    .default(30),
  DELIVERY_POLL_SECONDS: z.coerce.number().min(0.5, 'must be at least 0.5 seconds').max(60, 'must be at most 60 seconds').default(1),
  // Webhooks to the operator's systems (integrations/events/webhooks).
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool(false),
  LOYALTY_CLAIM_DAYS: z.coerce.number().int().min(1).max(3650, 'must be at most 3650 days').default(90),
  LOYALTY_POINTS_PER_USD_TICKETS: z.coerce.number().int('must be whole points').min(0).max(1000).default(1),
  LOYALTY_POINTS_PER_USD_FOOD_AND_BEVERAGE: z.coerce.number().int('must be whole points').min(0).max(1000).default(1),
  LOYALTY_POINTS_PER_USD_HOTEL: z.coerce.number().int('must be whole points').min(0).max(1000).default(2),
  LOYALTY_POINTS_EXPIRE_MONTHS: z.coerce
    .number()
    .int('must be whole months')
    .min(0, 'must be 0 (never) or more')
    .max(120, 'must be at most 120 months')
    .default(12),
  LOYALTY_ACCOUNTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(10_000, 'must be at most 10000').default(20),
  TICKET_SHARE_LIMIT: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(10),
  TICKET_SHARE_MAILS_PER_DAY: z.coerce.number().int('must be a whole number').min(1).max(1000, 'must be at most 1000').default(20),
  VISIT_BOOKING_DAYS: z.coerce.number().int('must be whole days').min(1).max(90, 'must be at most 90 days').default(14),
  VISIT_DAYS_AHEAD: z.coerce.number().int('must be whole days').min(0).max(365, 'must be at most 365 days').default(7),
  VISIT_UPCOMING_LIMIT: z.coerce.number().int('must be a whole number').min(1).max(50, 'must be at most 50').default(3),
  VISIT_NO_SHOW_LIMIT: z.coerce.number().int('must be a whole number').min(0, 'must be 0 (never) or more').max(100).default(3),
  VISIT_NO_SHOW_PERIOD_DAYS: z.coerce.number().int('must be whole days').min(1).max(365, 'must be at most 365 days').default(30),
  VISIT_NO_SHOW_BLOCK_DAYS: z.coerce.number().int('must be whole days').min(1).max(365, 'must be at most 365 days').default(14),
  STAFF_SESSION_HOURS: z.coerce.number().positive().max(168, 'must be at most 168 hours').default(12),
  RETENTION_REGISTRATION_DAYS: retentionDays(730),
  RETENTION_AUDIT_DAYS: retentionDays(730),
  RETENTION_PHOTO_DAYS: retentionDays(30),
  RETENTION_MAIL_DAYS: retentionDays(30),
  RETENTION_STAFF_SESSION_DAYS: retentionDays(90),
  RETENTION_ATTRACTION_USAGE_DAYS: retentionDays(90),
  RETENTION_DEVICE_DAYS: retentionDays(30),
  RETENTION_EVENT_DAYS: retentionDays(30),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional()
    .describe('Bearer token /metrics asks for; unset: /metrics is open in development, closed in production'),
  METRICS_PUBLIC: bool(false).describe('true: /metrics answers anyone without METRICS_TOKEN, in production too'),
  // Only "production" means anything: the server runs as deployed (npm start sets it).
  NODE_ENV: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** Google's root signing keys for Wallet callbacks (developers.google.com/wallet, "Add and delete callbacks"). */
export const GOOGLE_ROOT_KEYS_URL = 'https://pay.google.com/gp/m/issuer/keys';

/** Reads and validates the environment; a bad value throws naming the variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env) {
  // An empty variable counts as unset.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = env.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const appleFiles = [c.APPLE_CERT_FILE, c.APPLE_KEY_FILE, c.APPLE_WWDR_FILE];
  if (appleFiles.some(Boolean) && !appleFiles.every(Boolean)) {
    throw new ConfigError('Invalid configuration:\n  APPLE_CERT_FILE, APPLE_KEY_FILE, APPLE_WWDR_FILE: set all three or none');
  }
  if (Boolean(c.GOOGLE_WALLET_ISSUER_ID) !== Boolean(c.GOOGLE_WALLET_KEY_FILE)) {
    throw new ConfigError('Invalid configuration:\n  GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_KEY_FILE: set both or neither');
  }
  if (Boolean(c.GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID) !== Boolean(c.GOOGLE_WALLET_SMART_TAP_ISSUERS)) {
    throw new ConfigError(
      'Invalid configuration:\n  GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID, GOOGLE_WALLET_SMART_TAP_ISSUERS: set both or neither',
    );
  }
  if (c.METRICS_TOKEN && c.METRICS_PUBLIC) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_TOKEN, METRICS_PUBLIC: set METRICS_TOKEN to guard /metrics or METRICS_PUBLIC=true to open it, not both',
    );
  }
  return {
    port: c.PORT,
    /** NODE_ENV=production: the server runs as deployed (closed defaults, e.g. /metrics). */
    production: c.NODE_ENV === 'production',
    host: c.HOST,
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    dataDir: resolve(c.DATA_DIR),
    /** The built web app to serve; null: the build beside the server (apps/web/dist). */
    webDir: c.WEB_DIR ? resolve(c.WEB_DIR) : null,
    databaseUrl: c.DATABASE_URL,
    /** PostgreSQL connections a process opens at most; unset: three per core, 4 to 10 (defaultPoolSize). */
    databasePoolSize: c.DATABASE_POOL_SIZE,
    redisUrl: c.REDIS_URL,
    integrationApiKeys: c.INTEGRATION_API_KEYS,
    demoData: c.DEMO_DATA,
    /** With the demo: its 90 days of loyalty club history (the browser tests start from an empty club). */
    demoHistory: c.DEMO_HISTORY,
    demoToday: c.DEMO_TODAY,
    adminEmail: c.ADMIN_EMAIL,
    adminPassword: c.ADMIN_PASSWORD,
    smtpUrl: c.SMTP_URL,
    teamEmail: c.TEAM_EMAIL,
    webhooks: {
      /** Endpoints on loopback, private and link-local addresses, and plain http, are accepted (an on-premises CRM; tests). */
      allowPrivateNetworks: c.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    },
    supportEmail: c.SUPPORT_EMAIL,
    brandName: c.BRAND_NAME,
    parkTimezone: c.PARK_TIMEZONE,
    trustProxy: c.TRUST_PROXY,
    defaultPassColors: { background: c.PASS_BACKGROUND_COLOR, foreground: c.PASS_FOREGROUND_COLOR },
    logLevel: c.LOG_LEVEL,
    /** /metrics answers only to `Authorization: Bearer <metricsToken>` when set. */
    metricsToken: c.METRICS_TOKEN,
    /** Without metricsToken, /metrics answers anyone in production only when this is set. */
    metricsPublic: c.METRICS_PUBLIC,
    staffSessionHours: c.STAFF_SESSION_HOURS,
    /** How long personal data stays once its period starts, in days (0: kept); the retention job removes it. */
    retention: {
      /** A ticket's registration (pseudonymised), after the ticket expired or was used, unless the registrant is a loyalty member. */
      registrationDays: c.RETENTION_REGISTRATION_DAYS,
      /** A guest's personal fields in an audit entry (the entry stays), after it was written. */
      auditDays: c.RETENTION_AUDIT_DAYS,
      /** A face photo, after its ticket expired. */
      photoDays: c.RETENTION_PHOTO_DAYS,
      /** A mail (its outbox row), after it was sent or its delivery ended. */
      mailDays: c.RETENTION_MAIL_DAYS,
      /** A staff session, after it ended. */
      staffSessionDays: c.RETENTION_STAFF_SESSION_DAYS,
      /** An attraction usage event, after it happened. */
      attractionUsageDays: c.RETENTION_ATTRACTION_USAGE_DAYS,
      /** An Apple device registration, after its pass was voided or its ticket expired. */
      deviceDays: c.RETENTION_DEVICE_DAYS,
      /** An event for the operator's systems (the event feed), after it happened. */
      eventDays: c.RETENTION_EVENT_DAYS,
    },
    loyalty: {
      /** A purchase older than this many days cannot be claimed. */
      claimDays: c.LOYALTY_CLAIM_DAYS,
      /** Points expire this many months after they were earned (each lot on its own); 0: never. */
      pointsExpireMonths: c.LOYALTY_POINTS_EXPIRE_MONTHS,
      /** Accounts the public create makes for one client address per hour. */
      accountsPerAddressPerHour: c.LOYALTY_ACCOUNTS_PER_ADDRESS_PER_HOUR,
      /** Whole points per USD by claim type (points = floor(cents x rate / 100)). */
      pointsPerUsd: {
        ticket: c.LOYALTY_POINTS_PER_USD_TICKETS,
        'food-and-beverage': c.LOYALTY_POINTS_PER_USD_FOOD_AND_BEVERAGE,
        hotel: c.LOYALTY_POINTS_PER_USD_HOTEL,
      },
    },
    /** Passholder visit reservations (docs/visit-reservations.md). */
    visits: {
      /** The days the pass page shows, from today's. */
      bookingDays: c.VISIT_BOOKING_DAYS,
      /** How many days ahead a day opens for booking to a pass without a tier (or a tier without its own). */
      daysAhead: c.VISIT_DAYS_AHEAD,
      /** Upcoming bookings and waitlist places one pass may hold. */
      upcomingLimit: c.VISIT_UPCOMING_LIMIT,
      /** This many no-shows within the period block new bookings for the block's days after the last (0: never). */
      noShowLimit: c.VISIT_NO_SHOW_LIMIT,
      noShowPeriodDays: c.VISIT_NO_SHOW_PERIOD_DAYS,
      noShowBlockDays: c.VISIT_NO_SHOW_BLOCK_DAYS,
    },
    /** Active shares one ticket may have, counted under a lock on the ticket. */
    ticketShareLimit: c.TICKET_SHARE_LIMIT,
    /** Share mails (new shares, email changes) one ticket may send per park day. */
    ticketShareMailsPerDay: c.TICKET_SHARE_MAILS_PER_DAY,
    deliveries: {
      workers: c.DELIVERY_WORKERS,
      coalesceSeconds: c.DELIVERY_COALESCE_SECONDS,
      retryLimit: c.DELIVERY_RETRY_LIMIT,
      retryDelaySeconds: c.DELIVERY_RETRY_DELAY_SECONDS,
      expireSeconds: c.DELIVERY_EXPIRE_SECONDS,
      pollSeconds: c.DELIVERY_POLL_SECONDS,
    },
    apple: {
      passTypeId: c.APPLE_PASS_TYPE_ID,
      teamId: c.APPLE_TEAM_ID,
      certFile: c.APPLE_CERT_FILE,
      keyFile: c.APPLE_KEY_FILE,
      keyPassphrase: c.APPLE_KEY_PASSPHRASE,
      wwdrFile: c.APPLE_WWDR_FILE,
      nfcKeyFile: c.APPLE_NFC_KEY_FILE,
      apnsUrl: c.APNS_URL ?? (c.APPLE_CERT_FILE ? 'https://api.push.apple.com' : undefined),
      apnsCaFile: c.APNS_CA_FILE,
      apnsConnections: c.APNS_CONNECTIONS,
      devicesPerPass: c.PASSKIT_DEVICES_PER_PASS,
      certWarningDays: c.APPLE_CERT_WARNING_DAYS,
    },
    google: {
      issuerId: c.GOOGLE_WALLET_ISSUER_ID,
      keyFile: c.GOOGLE_WALLET_KEY_FILE,
      apiUrl: c.GOOGLE_WALLET_API_URL.replace(/\/$/, ''),
      // Google's own key document when Google credentials are configured; without them no callback is accepted.
      rootKeys: c.GOOGLE_WALLET_ROOT_KEYS ?? (c.GOOGLE_WALLET_KEY_FILE ? GOOGLE_ROOT_KEYS_URL : undefined),
      requestsPerSecond: c.GOOGLE_WALLET_REQUESTS_PER_SECOND,
      smartTap:
        c.GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID && c.GOOGLE_WALLET_SMART_TAP_ISSUERS
          ? { collectorId: c.GOOGLE_WALLET_SMART_TAP_COLLECTOR_ID, redemptionIssuers: c.GOOGLE_WALLET_SMART_TAP_ISSUERS.split(',') }
          : null,
    },
  };
}
