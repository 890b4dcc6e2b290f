import { inject } from 'vitest';

// Route modules reach the database through getDb(), which reads DATABASE_URL: point it at
// the suite's migrated database before any test imports them.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'silent';
