// The two ways a command fails: CliError (exit 1: the server refused, the network failed, the
// input file is bad) and UsageError (exit 2: the command line itself is wrong). Either prints
// one line on stderr, plus the field errors when there are some; never a stack trace.

export type FieldErrors = Record<string, string>;

export class CliError extends Error {
  constructor(
    message: string,
    readonly fields: FieldErrors = {},
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, {}, 2);
    this.name = 'UsageError';
  }
}

/** The lines printed for a failure: the message, then `  field: reason` per field. */
export function errorLines(error: CliError): string {
  const fields = Object.entries(error.fields).map(([field, reason]) => `  ${field}: ${reason}\n`);
  return `onreco: ${error.message}\n${fields.join('')}`;
}
