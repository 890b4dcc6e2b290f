// What `stores import` and `sensors import` share once the file is read: the body is checked with
// the call's own schema here first (the same one the server parses with, so a bad file is told
// without a round trip), then sent; any refusal is told by the file's lines and columns.
import type { z } from 'zod';
import type { ApiCall } from '../../app/domain/api/call';
import type { ImportAnswer } from '../../app/domain/store-import';
import type { WireInput } from '../client';
import { CliError } from '../errors';
import { type ImportLines, importErrors } from '../import-file';
import { print, tableText, withProgress } from '../output';
import { type CliContext, clientOf } from './common';

type ImportCall = ApiCall & { input: { in: 'body'; schema: z.ZodTypeAny } };

function summaryText(answer: ImportAnswer): string {
  const verb = answer.dry_run ? 'Would create' : 'Created';
  const there = `${answer.stores_existing} stores and ${answer.sensors_existing} sensors were there already and are left as they are`;
  if (answer.stores_created + answer.sensors_created === 0) return `Nothing to create: ${there}.\n`;
  return `${verb} ${answer.stores_created} stores and ${answer.sensors_created} sensors; ${there}.${answer.dry_run ? ' Nothing was written (--dry-run).' : ''}\n`;
}

export async function runImport<C extends ImportCall>(ctx: CliContext, options: { json?: boolean }, file: string, call: C, body: WireInput<C>, lines: ImportLines): Promise<void> {
  const checked = await call.input.schema.safeParseAsync(body);
  if (!checked.success) {
    const fields: Record<string, string> = {};
    for (const issue of checked.error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
    throw importErrors(file, fields, lines);
  }
  const client = await clientOf(ctx);
  let answer: ImportAnswer;
  try {
    answer = (await withProgress(ctx, `Importing ${file}`, () => client.call(call, body))) as ImportAnswer;
  } catch (error) {
    if (error instanceof CliError && Object.keys(error.fields).length > 0) throw importErrors(file, error.fields, lines);
    throw error;
  }
  const state = (created: boolean) => (created ? (answer.dry_run ? 'would create' : 'created') : 'there already');
  print(ctx, options, answer, () =>
    tableText(answer.stores, [
      { header: 'STORE ID', value: (store) => store.store_id },
      { header: 'STORE', value: (store) => state(store.created) },
      { header: 'NEW SENSORS', value: (store) => store.sensors_created, align: 'right' },
      { header: 'SENSORS THERE', value: (store) => store.sensors_existing, align: 'right' },
    ]) + summaryText(answer),
  );
}
