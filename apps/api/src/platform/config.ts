// Configuration from the environment (decisions.md "Configuration"), validated at start.
import { resolve } from 'node:path';
import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
const optionalText = z.string().trim().min(1).optional();
const hexColor = z.string().regex(/^[0-9a-fA-F]{6}$/, 'must be 6 hex digits without #');

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  INTEGRATION_API_KEYS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const keys = new Map<string, string>();
      for (const pair of (v ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
        const at = pair.indexOf(':');
        const name = pair.slice(0, at);
        const secret = pair.slice(at + 1);
        if (at < 1 || secret.length < 16) {
          ctx.addIssue({ code: 'custom', message: 'must be name:secret pairs, each secret at least 16 characters' });
          return z.NEVER;
        }
        keys.set(name, secret);
      }
      return keys;
    }),
  DEMO_DATA: bool(true),
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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

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
  return {
    port: c.PORT,
    host: c.HOST,
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    dataDir: resolve(c.DATA_DIR),
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    integrationApiKeys: c.INTEGRATION_API_KEYS,
    demoData: c.DEMO_DATA,
    adminEmail: c.ADMIN_EMAIL,
    adminPassword: c.ADMIN_PASSWORD,
    smtpUrl: c.SMTP_URL,
    teamEmail: c.TEAM_EMAIL,
    supportEmail: c.SUPPORT_EMAIL,
    brandName: c.BRAND_NAME,
    parkTimezone: c.PARK_TIMEZONE,
    trustProxy: c.TRUST_PROXY,
    defaultPassColors: { background: c.PASS_BACKGROUND_COLOR, foreground: c.PASS_FOREGROUND_COLOR },
    logLevel: c.LOG_LEVEL,
  };
}
