import { Form, useNavigation, useSubmit } from '@remix-run/react';
import { type FormEvent, useRef, useState } from 'react';
import { Dialog } from '~/components/dialog';
import { FormPage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { STORE_MESSAGES, StoreSaveSchema } from '~/domain/store-schemas';
import { isOpeningDateLocked, isRemovedStore } from '~/domain/working-state';
import { type StoreFormValues, storeFormProblems, storeInputOf, usergroupFitsCompany } from '~/domain/store-form';
import { UsergroupSelects } from '~/components/usergroup-selects';

export interface StoreFormProps {
  title: string;
  mode: 'create' | 'edit';
  initial: StoreFormValues;
  /** The store's working state on edit (opening date locked in 1 and 2; a removed store asks before saving). */
  workingState?: number | null;
  companies: readonly { company_id: string; company_name: string }[];
  storegroups: readonly { storegroup_id: string; storegroup_name: string; company_id: string }[];
  prefectures: readonly { prefecture_id: number; prefecture_name: string }[];
  /** With the companies each group is of (none: unused yet, offered for any company). */
  groups: readonly { usergroup_id: number; usergroup_name: string; company_ids: readonly string[] }[];
  closeTo: string;
  fields?: Record<string, string>;
  banner?: string | null;
}

const firstErrors = (error: import('zod').ZodError) => {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[String(issue.path[0] ?? '_')] ??= issue.message;
  return fields;
};

/**
 * The store create and edit form (001 §2 Store create, Store edit; §5): the company reloads and
 * clears the store group, at least one user group (the error on the first select), the opening
 * date locked while operating or removed, and 'save settings?' only for a removed store.
 */
export function StoreForm({ title, mode, initial, workingState = null, companies, storegroups, prefectures, groups, closeTo, fields: serverFields = {}, banner: serverBanner = null }: StoreFormProps) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<StoreFormValues>(initial);
  const [groupSlots, setGroupSlots] = useState<string[]>(initial.usergroup.length > 0 ? initial.usergroup : ['']);
  const [clientFields, setClientFields] = useState<Record<string, string> | null>(null);
  const [confirming, setConfirming] = useState(false);
  const fields = clientFields ?? serverFields;
  const banner = clientFields ? STORE_MESSAGES.banner : serverBanner;
  const openingLocked = mode === 'edit' && isOpeningDateLocked(workingState);
  const set = (name: keyof StoreFormValues) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));
  const companyGroups = values.company_id ? storegroups.filter((group) => group.company_id === values.company_id) : storegroups;
  // Only the user groups of the chosen company (decision 271); the server refuses the others too.
  const groupsOf = (companyId: string) => (companyId ? groups.filter((group) => usergroupFitsCompany(group.company_ids, companyId)) : groups);
  const companyUsergroups = groupsOf(values.company_id);
  const changeCompany = (companyId: string) => {
    setValues((current) => ({ ...current, company_id: companyId, storegroup_id: '' }));
    // A chosen group of the old company only is cleared, as the store group is.
    const fitting = new Set(groupsOf(companyId).map((group) => String(group.usergroup_id)));
    setGroupSlots((slots) => {
      const kept = slots.filter((slot) => slot !== '' && fitting.has(slot));
      return kept.length > 0 ? kept : [''];
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value === 'add_group') {
      event.preventDefault();
      setGroupSlots((slots) => [...slots, '']);
      return;
    }
    const parsed = StoreSaveSchema.safeParse(storeInputOf({ ...values, usergroup: groupSlots }, mode));
    const problems = storeFormProblems(values);
    if (!parsed.success || Object.keys(problems).length > 0) {
      event.preventDefault();
      setClientFields({ ...problems, ...(parsed.success ? {} : firstErrors(parsed.error)) });
      return;
    }
    setClientFields(null);
    if (mode === 'edit' && isRemovedStore(workingState) && !confirming) {
      event.preventDefault();
      setConfirming(true);
    }
  };

  const text = (name: keyof StoreFormValues, label: string, options: { type?: string; readOnly?: boolean; inputMode?: 'numeric'; required?: boolean } = {}) => (
    <div>
      <label htmlFor={name} className="label">
        {label}
        {options.required && <span className="ml-1 text-xs text-red-600">必須</span>}
      </label>
      <input
        id={name}
        name={name}
        type={options.type ?? 'text'}
        className={`input ${options.readOnly ? 'bg-slate-100 text-slate-500' : ''}`}
        value={String(values[name])}
        onChange={set(name)}
        readOnly={options.readOnly}
        inputMode={options.inputMode}
        autoComplete="off"
        aria-invalid={fields[name] ? true : undefined}
      />
      <p className="field-error">{fields[name]}</p>
    </div>
  );

  return (
    <FormPage title={title} closeTo={closeTo}>
      <StatusBar tone="error" message={banner} />
      <Form ref={formRef} method="post" className="card grid gap-5 p-6 sm:grid-cols-2" noValidate onSubmit={onSubmit}>
        <div>
          <label htmlFor="company_id" className="label">会社<span className="ml-1 text-xs text-red-600">必須</span></label>
          <select
            id="company_id"
            name="company_id"
            className="input"
            value={values.company_id}
            onChange={(event) => changeCompany(event.target.value)}
            aria-invalid={fields.company_id ? true : undefined}
          >
            <option value="">選択してください</option>
            {companies.map((company) => (
              <option key={company.company_id} value={company.company_id}>{company.company_name}</option>
            ))}
          </select>
          <p className="field-error">{fields.company_id}</p>
        </div>
        <div>
          <label htmlFor="storegroup_id" className="label">店舗グループ<span className="ml-1 text-xs text-red-600">必須</span></label>
          <select id="storegroup_id" name="storegroup_id" className="input" value={values.storegroup_id} onChange={set('storegroup_id')} aria-invalid={fields.storegroup_id ? true : undefined}>
            <option value="">選択してください</option>
            {companyGroups.map((group) => (
              <option key={group.storegroup_id} value={group.storegroup_id}>{group.storegroup_name}</option>
            ))}
          </select>
          <p className="field-error">{fields.storegroup_id}</p>
        </div>
        {text('store_id', '店舗ID', { readOnly: mode === 'edit', required: true })}
        {text('store_no', '店舗番号', { inputMode: 'numeric', required: true })}
        <div className="sm:col-span-2">{text('store_name', '店舗名', { required: true })}</div>
        <div>
          <label htmlFor="prefecture_id" className="label">都道府県<span className="ml-1 text-xs text-red-600">必須</span></label>
          <select id="prefecture_id" name="prefecture_id" className="input" value={values.prefecture_id} onChange={set('prefecture_id')} aria-invalid={fields.prefecture_id ? true : undefined}>
            <option value="">選択してください</option>
            {prefectures.map((prefecture) => (
              <option key={prefecture.prefecture_id} value={prefecture.prefecture_id}>{prefecture.prefecture_name}</option>
            ))}
          </select>
          <p className="field-error">{fields.prefecture_id}</p>
        </div>
        {text('tel_no', '電話番号（ハイフンなし）', { inputMode: 'numeric' })}
        <div className="sm:col-span-2">{text('address', '住所', { required: true })}</div>
        {text('opening_date', '開店日', { type: 'date', readOnly: openingLocked, required: true })}
        {text('closing_date', '閉店日', { type: 'date' })}
        <UsergroupSelects slots={groupSlots} onChange={setGroupSlots} groups={companyUsergroups} error={fields.usergroup} className="sm:col-span-2" listClassName="grid gap-2 sm:grid-cols-2" required />
        <div className="sm:col-span-2">{text('gateway_info', 'ゲートウェイ情報', { required: mode === 'create' })}</div>
        <div className="flex justify-end sm:col-span-2">
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={navigation.state === 'submitting'}>
            {mode === 'create' ? '登録' : '保存'}
          </button>
        </div>
      </Form>
      {confirming && (
        <Dialog
          title="設定を保存しますか？"
          message="撤去された店舗の情報を変更します。"
          cancelLabel="編集を続ける"
          confirmLabel="変更を保存"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            const data = new FormData(formRef.current!);
            data.set('intent', 'save');
            submit(data, { method: 'post' });
            setConfirming(false);
          }}
        />
      )}
    </FormPage>
  );
}
