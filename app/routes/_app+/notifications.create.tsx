import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json } from '@remix-run/node';
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { FormPage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { getDb } from '~/db/db.server';
import { NOTICE_CONTENT_MAX, NOTICE_MESSAGES, NOTICE_TITLE_MAX, NoticeSchema } from '~/domain/notice-schemas';
import { createNotice } from '~/models/notices.server';
import { requireRole } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import type { AppHandle } from './_layout';
import { appUrl } from '~/domain/urls';

export const handle: AppHandle = { hideDashboardLink: true };
export const meta: MetaFunction = () => [{ title: 'お知らせ作成 | On-Reco' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'createNotice');
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const viewer = await requireRole(request, 'createNotice');
  const form = Object.fromEntries(await request.formData());
  const parsed = NoticeSchema.safeParse(form);
  if (!parsed.success) {
    const values = { title: String(form.title ?? ''), content: String(form.content ?? '') };
    return json({ ok: false as const, fields: fieldErrors(parsed.error), values }, { status: 400 });
  }
  const notice = await createNotice(getDb(), { ...parsed.data, createdBy: viewer.userId });
  return json({ ok: true as const, noticeId: notice.notice_id, fields: {} as Record<string, string> });
}

const length = (value: string) => [...value].length;

export default function NoticeCreatePage() {
  const result = useActionData<typeof action>();
  return (
    // A registered notice remounts the form empty, ready for the next one.
    <NoticeForm
      key={result?.ok ? result.noticeId : 'new'}
      initial={result && !result.ok ? result.values : { title: '', content: '' }}
      fields={result?.fields ?? {}}
      outcome={result ? (result.ok ? 'success' : 'failure') : null}
    />
  );
}

interface NoticeFormProps {
  initial: { title: string; content: string };
  fields: Record<string, string>;
  outcome: 'success' | 'failure' | null;
}

function NoticeForm({ initial, fields, outcome }: NoticeFormProps) {
  const navigation = useNavigation();
  const [title, setTitle] = useState(initial.title);
  const [content, setContent] = useState(initial.content);
  return (
    <FormPage title="お知らせ作成" closeTo={appUrl.dashboard}>
      <StatusBar tone="success" message={outcome === 'success' ? NOTICE_MESSAGES.success : null} />
      <StatusBar tone="error" message={outcome === 'failure' ? NOTICE_MESSAGES.failure : null} />
      <Form method="post" className="card space-y-5 p-6" noValidate>
        <div>
          <label htmlFor="title" className="label">タイトル</label>
          <input id="title" name="title" className="input" value={title} onChange={(e) => setTitle(e.target.value)} aria-invalid={fields.title ? true : undefined} />
          <div className="flex justify-between">
            <p className="field-error">{fields.title}</p>
            <p className={`mt-1 text-xs ${length(title) > NOTICE_TITLE_MAX ? 'text-red-600' : 'text-slate-400'}`}>{length(title)} / {NOTICE_TITLE_MAX}</p>
          </div>
        </div>
        <div>
          <label htmlFor="content" className="label">本文</label>
          <textarea id="content" name="content" rows={5} className="input" value={content} onChange={(e) => setContent(e.target.value)} aria-invalid={fields.content ? true : undefined} />
          <div className="flex justify-between">
            <p className="field-error">{fields.content}</p>
            <p className={`mt-1 text-xs ${length(content) > NOTICE_CONTENT_MAX ? 'text-red-600' : 'text-slate-400'}`} aria-live="polite">
              {length(content)} / {NOTICE_CONTENT_MAX}
            </p>
          </div>
        </div>
        <p className="text-xs text-slate-500">登録したお知らせはダッシュボードに1週間表示されます。</p>
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={!title.trim() || !content.trim() || navigation.state === 'submitting'}>
            登録
          </button>
        </div>
      </Form>
    </FormPage>
  );
}
