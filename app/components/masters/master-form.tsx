import { Form, useNavigation } from '@remix-run/react';
import { type FormEvent, type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { FormPage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { MASTER_MESSAGES, messagesByField } from '~/domain/master-schemas';

// The system masters' create and edit forms (001 §2, §5): the fields, the same schema checked in
// the browser before sending (the server checks it again and answers at the same fields), the
// 入力に誤りがあります banner, and the close icon with its discard dialog.

export interface FieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'select';
  /** Text: the most characters (a counter shows them); select: the options, the first unselected. */
  max?: number;
  options?: readonly { value: string; label: string }[];
  readOnly?: boolean;
  placeholder?: string;
}

export interface MasterFormProps {
  title: string;
  closeTo: string;
  submitLabel: string;
  fields: readonly FieldSpec[];
  initial: Record<string, string>;
  /** What the server answered to the last submit. */
  server?: { fields: Record<string, string>; message: string; values: Record<string, string> } | null;
  /** The schema the server parses the form with (extra fields it needs, such as mode, are hidden inputs). */
  schema: z.ZodTypeAny;
  hidden?: Record<string, string>;
}

const length = (value: string) => [...value].length;

export function MasterForm({ title, closeTo, submitLabel, fields, initial, server, schema, hidden = {} }: MasterFormProps) {
  const navigation = useNavigation();
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...initial, ...(server?.values ?? {}) }));
  const [clientErrors, setClientErrors] = useState<Record<string, string> | null>(null);
  const errors = clientErrors ?? server?.fields ?? {};
  const banner = clientErrors ? (Object.keys(clientErrors).length > 0 ? MASTER_MESSAGES.banner : null) : (server?.message ?? null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const parsed = schema.safeParse({ ...Object.fromEntries(new FormData(event.currentTarget)) });
    const found = parsed.success ? {} : messagesByField(parsed.error);
    const refused = Object.keys(found).length > 0;
    setClientErrors(refused ? found : null);
    if (refused) event.preventDefault();
  };
  const onChange = (name: string, value: string) => setValues((current) => ({ ...current, [name]: value }));
  return (
    <FormPage title={title} closeTo={closeTo}>
      <StatusBar tone="error" message={banner} />
      <Form method="post" className="card space-y-5 p-6" noValidate onSubmit={onSubmit}>
        {fields.map((field) => (
          <Field key={field.name} field={field} value={values[field.name] ?? ''} error={errors[field.name]} onChange={onChange} />
        ))}
        <div className="flex justify-end">
          {/* Here, not first: a hidden input first in the form would push the first field down (space-y). */}
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="btn-primary min-w-[7rem]" disabled={navigation.state === 'submitting'}>
            {submitLabel}
          </button>
        </div>
      </Form>
    </FormPage>
  );
}

function Field({ field, value, error, onChange }: { field: FieldSpec; value: string; error?: string; onChange: (name: string, value: string) => void }): ReactNode {
  const id = `field-${field.name}`;
  const errorId = `${id}-error`;
  const common = { id, name: field.name, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined } as const;
  return (
    <div>
      <label htmlFor={id} className="label">
        {field.label}
        {!field.readOnly && <span className="ml-1 text-xs font-normal text-red-600">必須</span>}
      </label>
      {field.kind === 'select' ? (
        <select {...common} className="input" value={value} onChange={(event) => onChange(field.name, event.target.value)}>
          <option value="">選択してください</option>
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>{option.label}</option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          className={`input ${field.readOnly ? 'bg-slate-100 text-slate-500' : ''}`}
          value={value}
          readOnly={field.readOnly}
          placeholder={field.placeholder}
          autoComplete="off"
          onChange={(event) => onChange(field.name, event.target.value)}
        />
      )}
      <div className="flex justify-between gap-4">
        <p id={errorId} className="field-error">{error}</p>
        {field.kind === 'text' && field.max && !field.readOnly && (
          <p className={`mt-1 shrink-0 text-xs ${length(value) > field.max ? 'text-red-600' : 'text-slate-400'}`}>{length(value)} / {field.max}</p>
        )}
      </div>
    </div>
  );
}
