// What the command groups share: the client of the current session, the --json option, help
// examples, and reading values given as flags or a file.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ApiClient } from '../client';
import type { CliContext } from '../context';
import { CliError, UsageError } from '../errors';
import { decodeCsv } from '../import-file';
import { currentSession } from '../session';

export type { CliContext } from '../context';

export async function clientOf(ctx: CliContext): Promise<ApiClient> {
  return new ApiClient(ctx, await currentSession(ctx));
}

/** Adds --json (the API's own field names) to a listing or a show. */
export const withJson = (command: Command) => command.option('--json', 'print the API\'s JSON instead of a table');

/** The examples shown under --help. */
export function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** A file's bytes; `-` is standard input. */
async function readInputBytes(ctx: CliContext, file: string): Promise<Uint8Array> {
  if (file === '-') return ctx.readStdin();
  try {
    return await readFile(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** A file's text (UTF-8); `-` is standard input. */
export async function readInputFile(ctx: CliContext, file: string): Promise<string> {
  return Buffer.from(await readInputBytes(ctx, file)).toString('utf8');
}

/** An import CSV's text: UTF-8, or Shift_JIS/CP932 as Excel saves it in Japan (decision 246). */
export async function readCsvFile(ctx: CliContext, file: string): Promise<string> {
  return decodeCsv(await readInputBytes(ctx, file), file);
}

/** A JSON object from `--file`. */
export async function readJsonFile(ctx: CliContext, file: string): Promise<Record<string, unknown>> {
  const text = await readInputFile(ctx, file);
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`${file} is not a JSON object: ${(error as Error).message}`);
  }
}

/** A whole positive number given on the command line. */
export function positiveInteger(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1) throw new UsageError(`${name} must be a positive whole number, not "${value}"`);
    return number;
  };
}

/** YYYY-MM-DD or YYYYMMDD as the API's YYYYMMDD. */
export function compactDay(name: string) {
  return (value: string): string => {
    const match = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value);
    if (!match) throw new UsageError(`${name} must be a date like 2026-10-01, not "${value}"`);
    return `${match[1]}${match[2]}${match[3]}`;
  };
}
