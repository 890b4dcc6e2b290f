// The import boundaries of eslint.config.js: each rule fails on the import it forbids and lets
// the allowed ones through (checked on made-up files, so the temporary list does not matter).
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** The boundary messages ESLint gives `code` as if it were the file `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = [x];\n`, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

const cases: { file: string; forbidden: string[]; allowed: string[] }[] = [
  {
    file: 'app/routes/on-reco+/v1.example.ts',
    forbidden: ["import { sql as x } from 'kysely';", "import { migrateToLatest as x } from '~/db/migrate.server';", "import { x } from '../../db/embedded-postgres.server';"],
    allowed: ["import type { Kysely as x } from 'kysely';", "import { getDb as x } from '~/db/db.server';", "import type { Database as x } from '~/db/schema';", "import { listStores as x } from '~/models/stores.server';"],
  },
  {
    file: 'app/models/example.server.ts',
    forbidden: ["import { ingestReadings as x } from '~/services/ingest.server';", "import { apiError as x } from '~/http/access.server';", "import { json as x } from '@remix-run/node';", "import { x } from '../services/alerts.server';"],
    allowed: ["import { sql as x } from 'kysely';", "import { x } from '~/domain/levels';"],
  },
  {
    file: 'app/services/example.server.ts',
    forbidden: ["import { redirect as x } from '@remix-run/node';", "import { requireUser as x } from '~/http/access.server';", "import { x } from '../http/api.server';"],
    allowed: ["import { x } from '~/models/stores.server';", "import { x } from '~/domain/levels';"],
  },
  {
    file: 'app/domain/example.ts',
    forbidden: ["import { x } from 'kysely';", "import { x } from '~/models/stores.server';", "import { x } from '../models/stores.server';", "import { x } from 'node:fs';", "import { x } from '../../gateway/state';"],
    allowed: ["import { z as x } from 'zod';", "import { x } from './levels';", "import { x } from '~/domain/levels';", "import { BLE_ADDRESS as x } from '../../gateway/protocol';"],
  },
  {
    file: 'app/components/example.tsx',
    forbidden: ["import { x } from '~/models/notices.server';", "import type { x } from '~/models/graph.server';", "import { x } from '../http/session.server';"],
    allowed: ["import { x } from '~/domain/graph';", "import { x } from './dialog';"],
  },
  {
    file: 'app/demo/example.server.ts',
    // The demo's simulated gateways run the daemon's own client: the demo may import the gateway.
    forbidden: [],
    allowed: ["import { ApiClient as x } from '../../gateway/api-client';", "import type { WireReading as x } from '../../gateway/protocol';", "import { x } from '~/models/stores.server';"],
  },
  {
    file: 'app/jobs/example.server.ts',
    forbidden: ["import { json as x } from '@remix-run/node';", "import { requireUser as x } from '~/http/access.server';", "import { x } from '~/components/page';", "import { x } from '../routes/_app+/dashboard';"],
    allowed: ["import { x } from '~/services/outbox.server';", "import { x } from '~/models/audit.server';", "import { x } from './job.server';", "import { x } from '~/domain/japan-time';"],
  },
  {
    file: 'app/reports/example.server.ts',
    forbidden: ["import { x } from '~/jobs/reports.server';", "import { x } from '../jobs/job.server';", "import { apiError as x } from '~/http/access.server';", "import { x } from '~/components/page';", "import { redirect as x } from '@remix-run/node';"],
    allowed: ["import { x } from '~/models/reports.server';", "import { x } from '~/domain/csv';", "import { x } from './layout';", "import { x } from 'pdfmake';"],
  },
  {
    file: 'cli/commands/example.ts',
    forbidden: ["import { x } from '../../app/models/stores.server';", "import { x } from '../../app/services/reports.server';", "import { x } from '~/domain/csv';", "import { x } from '../../gateway/protocol';", "import { x } from '../../app/http/api.server';"],
    allowed: ["import { x } from '../../app/domain/api/stores';", "import { x } from '../../app/domain/store-status';", "import { x } from '../output';", "import { Command as x } from 'commander';"],
  },
  {
    file: 'gateway/example.ts',
    forbidden: ["import { x } from '../app/domain/levels';", "import { x } from '~/domain/levels';"],
    allowed: ["import { x } from './protocol';", "import { z as x } from 'zod';"],
  },
];

describe('import boundaries (eslint.config.js)', () => {
  for (const { file, forbidden, allowed } of cases) {
    it(`${file}: refuses ${forbidden.length} imports and lets ${allowed.length} through`, async () => {
      for (const code of forbidden) expect(await boundaryErrors(file, code), code).toHaveLength(1);
      for (const code of allowed) expect(await boundaryErrors(file, code), code).toEqual([]);
    }, 60_000);
  }
});
