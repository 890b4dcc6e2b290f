import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureConsoleBuild, sourcesHash } from './console-build';
import { stopProcess } from './processes';
import { createDb } from '../../app/db/db.server';
import { DEMO_DEFAULT_PASSWORD } from '../../app/domain/demo';
import { seedDemoChain } from '../../app/demo/seed.server';
import { resetDb } from './db';
import { freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    demoPassword: string;
    smtpPort: number;
  }
}

// The e2e suite drives the real console: a production build served by our web server (scripts/server.ts) on a free
// port (the tests' own build, console-build.ts), on the suite's database seeded with the demo
// chain (one day of readings).
export default async function setup(project: TestProject) {
  const databaseUrl = project.getProvidedContext().databaseUrl;
  const db = createDb(databaseUrl, 2);
  await seedDemoChain(db, { days: 1, password: DEMO_DEFAULT_PASSWORD, now: new Date() });
  await db.destroy();

  let build = await ensureConsoleBuild();
  let sources = sourcesHash();

  const port = await freePort();
  // Mail tests listen on this port with a real SMTP server of their own (tests/support/smtp.ts).
  const smtpPort = await freePort();
  const start = async () => {
    const server = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/server.ts'), build], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        SESSION_SECRET: 'e2e-session-secret-0123456789',
        ONRECO_PUBLIC_URL: `http://localhost:${port}`,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // The webhook tests' receivers listen on 127.0.0.1 (decision 314 refuses them otherwise).
        ONRECO_WEBHOOK_PRIVATE_TARGETS: '1',
        // The tests provoke 4xx on purpose: the server's warn lines would only be noise here.
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitForServer(`http://localhost:${port}/login`, server);
    return server;
  };
  let server = await start();
  // Watch mode (npm run test:watch): a rerun starts as a run does, on the demo chain alone (the
  // tests create their own stores and users, once per run), and after a console source changed,
  // with a console built from the sources as they are now, on the same port (baseUrl stays right).
  project.onTestsRerun(async () => {
    await stopProcess(server);
    const rerunDb = createDb(databaseUrl, 2);
    try {
      await resetDb(rerunDb);
      await seedDemoChain(rerunDb, { days: 1, password: DEMO_DEFAULT_PASSWORD, now: new Date() });
    } finally {
      await rerunDb.destroy();
    }
    if (sourcesHash() !== sources) {
      build = await ensureConsoleBuild();
      sources = sourcesHash();
    }
    server = await start();
  });
  project.provide('baseUrl', `http://localhost:${port}`);
  project.provide('demoPassword', DEMO_DEFAULT_PASSWORD);
  project.provide('smtpPort', smtpPort);
  return async () => {
    await stopProcess(server);
  };
}

async function waitForServer(url: string, server: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the console exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the console did not answer at ${url}`);
}
