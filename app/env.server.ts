import { z } from 'zod';

// Environment variables, parsed once at start by one schema.
const flag = z.enum(['0', '1']).transform((value) => value === '1');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z.string().url().optional(),
  PORT: z.coerce.number().int().positive().default(3000),
  SESSION_SECRET: z.string().min(16).optional(),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('On-Reco <no-reply@on-reco.local>'),
  ONRECO_OUTBOX_DIR: z.string().default('.data/outbox'),
  ONRECO_PUBLIC_URL: z.string().url().default('http://localhost:3000'),
  ONRECO_DEMO: flag.optional(),
  ONRECO_DEMO_DAYS: z.coerce.number().int().min(0).max(400).default(7),
  ONRECO_DEMO_PASSWORD: z.string().min(1).optional(),
  ONRECO_SIMULATOR: flag.default('1'),
  ONRECO_NO_COMMUNICATION_MINUTES: z.coerce.number().int().min(1).default(60),
  ONRECO_TOKEN_HOURS: z.coerce.number().positive().default(12),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof EnvSchema>;

let parsed: Env | undefined;

export function getEnv(): Env {
  if (!parsed) {
    const result = EnvSchema.safeParse(process.env);
    if (!result.success) {
      const fields = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new Error(`Invalid environment: ${fields}`);
    }
    parsed = result.data;
  }
  return parsed;
}
