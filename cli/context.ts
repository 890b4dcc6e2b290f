// What a command may touch of the outside world: its output streams, input, environment, the
// user's config folder and the network. Commands get it as an argument, so tests run them
// in-process with their own (gateway/cli.ts does the same).
import { homedir } from 'node:os';
import path from 'node:path';

export interface CliContext {
  stdout: (text: string) => void;
  /** Bytes as they are (a report file written to stdout with `--out -`). */
  stdoutBytes: (data: Uint8Array) => void;
  stderr: (text: string) => void;
  /** The whole of standard input as bytes (`--password-stdin`, `--file -`): a CSV may be Shift_JIS (decision 246). */
  readStdin: () => Promise<Uint8Array>;
  /** Asks a question on the terminal; `hidden` does not echo what is typed (passwords). */
  prompt: (question: string, options?: { hidden?: boolean }) => Promise<string>;
  env: Readonly<Record<string, string | undefined>>;
  /** Where the session file lives (mode 0600). */
  configDir: string;
  fetch: typeof fetch;
  /** Whether stderr is a terminal: progress is drawn in place only there. */
  interactive: boolean;
  exitCode: number;
}

/** The user's config folder: $XDG_CONFIG_HOME/onreco, else ~/.config/onreco. */
export function configDirOf(env: Readonly<Record<string, string | undefined>>): string {
  if (env.ONRECO_CONFIG_DIR) return env.ONRECO_CONFIG_DIR;
  return path.join(env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'onreco');
}

/** The real process: its streams, a terminal prompt, the network. */
export function processContext(): CliContext {
  return {
    stdout: (text) => process.stdout.write(text),
    stdoutBytes: (data) => process.stdout.write(data),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    prompt: (question, options) => askOnTerminal(question, options?.hidden ?? false),
    env: process.env,
    configDir: configDirOf(process.env),
    fetch: globalThis.fetch,
    interactive: process.stderr.isTTY === true,
    exitCode: 0,
  };
}

/** One line from the terminal; with `hidden`, typed characters are not echoed. */
async function askOnTerminal(question: string, hidden: boolean): Promise<string> {
  const { createInterface } = await import('node:readline');
  const input = process.stdin;
  const output = process.stderr;
  const rl = createInterface({ input, output, terminal: input.isTTY === true });
  if (hidden) {
    // readline echoes through _writeToOutput: write only the question, never what is typed.
    const writable = rl as unknown as { _writeToOutput: (text: string) => void };
    writable._writeToOutput = (text) => {
      if (text.startsWith(question)) output.write(question);
      else if (text.includes('\n') || text.includes('\r')) output.write('\n');
    };
  }
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    rl.close();
  }
}
