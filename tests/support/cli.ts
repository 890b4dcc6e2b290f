import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../cli/index';
import type { CliContext } from '../../cli/context';

// Runs onreco commands in-process (as a shell would run the bin) with captured output, a config
// folder of their own and the answers to its prompts.

export interface CliRun {
  code: number;
  stdout: string;
  /** stdout as bytes (a file written with --out -). */
  stdoutBytes: Buffer;
  stderr: string;
  /** stdout as JSON (for --json). */
  json<T = any>(): T;
}

export interface CliSandbox {
  configDir: string;
  env: Record<string, string | undefined>;
  run(args: string[], options?: { stdin?: string | Uint8Array; answers?: string[] }): Promise<CliRun>;
}

export function cliSandbox(env: Record<string, string | undefined> = {}): CliSandbox {
  const configDir = mkdtempSync(path.join(os.tmpdir(), 'onreco-cli-'));
  const sandbox: CliSandbox = {
    configDir,
    env,
    async run(args, options = {}) {
      const stdout: Buffer[] = [];
      let stderr = '';
      const answers = [...(options.answers ?? [])];
      const ctx: CliContext = {
        stdout: (text) => void stdout.push(Buffer.from(text, 'utf8')),
        stdoutBytes: (data) => void stdout.push(Buffer.from(data)),
        stderr: (text) => void (stderr += text),
        readStdin: async () => (typeof options.stdin === 'string' ? Buffer.from(options.stdin, 'utf8') : (options.stdin ?? new Uint8Array())),
        prompt: async () => answers.shift() ?? '',
        env: sandbox.env,
        configDir,
        fetch: globalThis.fetch,
        interactive: false,
        exitCode: 0,
      };
      const code = await runCli(args, ctx);
      const bytes = Buffer.concat(stdout);
      const text = bytes.toString('utf8');
      return { code, stdout: text, stdoutBytes: bytes, stderr, json: () => JSON.parse(text) };
    },
  };
  return sandbox;
}
