import { Form, useNavigation } from '@remix-run/react';
import { type FormEvent, useState } from 'react';
import { FormPage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { ALERT_FILTER, ALERT_FILTER_LABELS } from '~/domain/alert-filter';
import { LANGUAGE_LABELS, USER_MESSAGES, UserSaveSchema, type UserFormValues } from '~/domain/user-master';
import { UsergroupSelects } from '~/components/usergroup-selects';

export interface GroupOption {
  usergroup_id: number;
  usergroup_name: string;
}

export interface UserFormProps {
  title: string;
  mode: 'create' | 'edit';
  initial: UserFormValues;
  groups: readonly GroupOption[];
  companies: readonly { company_id: string; company_name: string }[];
  closeTo: string;
  /** The server's messages, at the same fields as the client's, and its banner. */
  fields?: Record<string, string>;
  banner?: string | null;
}

const firstErrors = (error: import('zod').ZodError) => {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_');
    fields[key] ??= issue.message;
  }
  return fields;
};

/**
 * The user master's and the store users' one form (001 §2 User master, Store user create and
 * edit): group selects (＋ adds one), user name, company, login id (read-only on edit), phone,
 * three mails, language, and the enable checkbox that shows the notify checkbox and the alert
 * radio. Works without JavaScript (＋ posts the form back with one more select); with it, the
 * same schema as the server checks it first.
 */
/** What a user form page renders from: the loader's values, or the action's refusal (its values, field messages and banner). */
export interface UserFormPageProps extends Pick<UserFormProps, 'title' | 'mode' | 'closeTo'> {
  data: Pick<UserFormProps, 'initial' | 'groups' | 'companies'>;
  result?: { values: UserFormValues; fields: Record<string, string>; banner: string };
}

/** The four user form pages (user master and store users, create and edit): a refusal remounts the form with the values sent. */
export function UserFormPage({ data, result, ...page }: UserFormPageProps) {
  return <UserForm key={JSON.stringify(result?.values ?? null)} {...page} initial={result?.values ?? data.initial} groups={data.groups} companies={data.companies} fields={result?.fields} banner={result?.banner} />;
}

export function UserForm({ title, mode, initial, groups, companies, closeTo, fields: serverFields = {}, banner: serverBanner = null }: UserFormProps) {
  const navigation = useNavigation();
  const [values, setValues] = useState<UserFormValues>(initial);
  const [groupSlots, setGroupSlots] = useState<string[]>(initial.usergroup.length > 0 ? initial.usergroup : ['']);
  const [clientFields, setClientFields] = useState<Record<string, string> | null>(null);
  const fields = clientFields ?? serverFields;
  const banner = clientFields ? USER_MESSAGES.banner : serverBanner;
  const set = (name: keyof UserFormValues) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === 'add_group') {
      event.preventDefault();
      setGroupSlots((slots) => [...slots, '']);
      return;
    }
    const parsed = UserSaveSchema.safeParse({ ...values, user_id: values.user_id || undefined, usergroup: groupSlots.filter(Boolean) });
    if (!parsed.success) {
      event.preventDefault();
      setClientFields(firstErrors(parsed.error));
      return;
    }
    setClientFields(null);
  };

  const text = (name: keyof UserFormValues, label: string, options: { type?: string; readOnly?: boolean; inputMode?: 'numeric' | 'email'; placeholder?: string; autoComplete?: string } = {}) => (
    <div>
      <label htmlFor={name} className="label">{label}</label>
      <input
        id={name}
        name={name}
        type={options.type ?? 'text'}
        className={`input ${options.readOnly ? 'bg-slate-100 text-slate-500' : ''}`}
        value={String(values[name])}
        onChange={set(name)}
        readOnly={options.readOnly}
        aria-readonly={options.readOnly || undefined}
        inputMode={options.inputMode}
        placeholder={options.placeholder}
        autoComplete={options.autoComplete ?? 'off'}
        aria-invalid={fields[name] ? true : undefined}
        aria-describedby={fields[name] ? `${name}-error` : undefined}
      />
      <p id={`${name}-error`} className="field-error">{fields[name]}</p>
    </div>
  );

  return (
    <FormPage title={title} closeTo={closeTo}>
      <StatusBar tone="error" message={banner} />
      <Form method="post" className="card space-y-5 p-6" noValidate onSubmit={onSubmit}>
        {mode === 'edit' && <input type="hidden" name="user_id" value={values.user_id} />}
        <UsergroupSelects slots={groupSlots} onChange={setGroupSlots} groups={groups} error={fields.usergroup} />
        {text('user_name', 'ユーザー名')}
        <div>
          <label htmlFor="company_id" className="label">会社</label>
          <select id="company_id" name="company_id" className="input" value={values.company_id} onChange={set('company_id')} aria-invalid={fields.company_id ? true : undefined}>
            <option value="">選択してください</option>
            {companies.map((company) => (
              <option key={company.company_id} value={company.company_id}>{company.company_name}</option>
            ))}
          </select>
          <p className="field-error">{fields.company_id}</p>
        </div>
        {text('login_id', 'ログインID', { readOnly: mode === 'edit' })}
        {text('tel_no', '電話番号（ハイフンなし）', { inputMode: 'numeric', placeholder: '0312345678' })}
        <div className="grid gap-3">
          {text('mailaddress1', 'メールアドレス1', { type: 'email', inputMode: 'email' })}
          {text('mailaddress2', 'メールアドレス2', { type: 'email', inputMode: 'email' })}
          {text('mailaddress3', 'メールアドレス3', { type: 'email', inputMode: 'email' })}
        </div>
        <fieldset>
          <legend className="label">言語</legend>
          <div className="flex gap-6 text-sm">
            {(['JP', 'US'] as const).map((language) => (
              <label key={language} className="flex items-center gap-2">
                <input type="radio" name="language" value={language} checked={values.language === language} onChange={() => setValues((current) => ({ ...current, language }))} />
                {LANGUAGE_LABELS[language]}
              </label>
            ))}
          </div>
        </fieldset>
        {/* The notify and alert-mail controls show only while 有効 is checked: a CSS rule on the
            checkbox's state, so it holds with and without JavaScript. Sent while hidden, they are
            ignored: an inactive user is saved with notice_flg 0 and alert_filter 2 (001 §4). */}
        <div className="group/enable space-y-3 rounded-md border border-slate-200 p-4">
          <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
            <input id="user-enabled" type="checkbox" name="valid_flg" value="1" checked={values.valid_flg === 1} onChange={(event) => setValues((current) => ({ ...current, valid_flg: event.target.checked ? 1 : 0 }))} />
            有効にする
          </label>
          <div className="space-y-3 group-has-[#user-enabled:not(:checked)]/enable:hidden">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name="notice_flg" value="1" checked={values.notice_flg === 1} onChange={(event) => setValues((current) => ({ ...current, notice_flg: event.target.checked ? 1 : 0 }))} />
              ユーザーに通知する
            </label>
            <fieldset>
              <legend className="label">警報メール</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
                {[ALERT_FILTER.occurrenceOnly, ALERT_FILTER.occurrenceAndRecovery, ALERT_FILTER.none].map((filter) => (
                  <label key={filter} className="flex items-center gap-2">
                    <input type="radio" name="alert_filter" value={filter} checked={values.alert_filter === filter} onChange={() => setValues((current) => ({ ...current, alert_filter: filter }))} />
                    {ALERT_FILTER_LABELS[filter]}
                  </label>
                ))}
              </div>
            </fieldset>
          </div>
        </div>
        <div className="flex justify-end">
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={navigation.state === 'submitting'}>
            {mode === 'create' ? '登録' : '保存'}
          </button>
        </div>
      </Form>
    </FormPage>
  );
}
