import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigate, useSearchParams } from '@remix-run/react';
import { useState } from 'react';
import { Modal } from '~/components/modal';
import { ListSection, StorePage } from '~/components/page-kit';
import { StatusBar } from '~/components/status-bar';
import { getDb } from '~/db/db.server';
import { formatDate, formatDateTime, fromJapan, japanParts } from '~/domain/japan-time';
import { HISTORY_PAGE_SIZE, OUTPUT_FORMAT_LABELS, REPORT_MESSAGES, REPORT_TYPE_LABELS } from '~/domain/report-form';
import type { ReportFormat, ReportType } from '~/domain/report-document';
import { ja } from '~/domain/texts/ja';
import { appUrl, reportUrl } from '~/domain/urls';
import { isRemovedStore } from '~/domain/working-state';
import { requireStoreUser } from '~/http/access.server';
import { listReportHistory } from '~/models/report-history.server';
import { listRegularReports } from '~/models/regular-reports.server';
import { getReportStore } from '~/models/report-collection.server';
import { deleteRegularReport } from '~/services/reports.server';

// /stores/{store_id}/reports (001 §2 Reports page): the history tab (month picker, 10 a page,
// downloads; 作成中 while the worker makes a report) and the regular tab (?type=reqular, spelled
// so): at most 10 settings, a row opens its edit page, the delete dialog; greyed for a removed store.

export const meta: MetaFunction = () => [{ title: 'レポート | On-Reco' }];

const monthOf = (value: string | null, now: Date) => {
  const m = /^(\d{4})-(\d{2})$/.exec(value ?? '');
  const p = japanParts(now);
  const [year, month] = m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? [Number(m[1]), Number(m[2])] : [p.year, p.month];
  return { year, month, key: `${year}-${String(month).padStart(2, '0')}` };
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const url = new URL(request.url);
  const db = getDb();
  const month = monthOf(url.searchParams.get('month'), new Date());
  const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get('page_no')) || 1));
  const since = fromJapan(month.year, month.month, 1);
  const until = new Date(fromJapan(month.year, month.month + 1, 1).getTime() - 1);
  const [history, regular, store] = await Promise.all([
    listReportHistory(db, viewer, { storeId, since, until, page, pageSize: HISTORY_PAGE_SIZE }),
    listRegularReports(db, viewer, storeId),
    getReportStore(db, storeId),
  ]);
  if (!history || !regular || !store) throw redirect(appUrl.notFound);
  return json({
    storeId,
    tab: url.searchParams.get('type') === 'reqular' ? ('regular' as const) : ('history' as const),
    month: month.key,
    page,
    removed: isRemovedStore(store.workingState),
    history: {
      total: history.total,
      rows: history.rows.map((row) => ({
        historyNo: row.historyNo,
        createdAt: formatDateTime(row.createdAt),
        fileName: row.fileName,
        type: REPORT_TYPE_LABELS[row.reportType as ReportType] ?? String(row.reportType),
        period: `${formatDate(row.startTime)} 〜 ${formatDate(row.endTime)}`,
        format: OUTPUT_FORMAT_LABELS[row.outputFormat as ReportFormat] ?? '',
        state: row.state,
      })),
    },
    regular: regular.map((row) => ({
      settingNo: row.settingNo,
      name: row.settingName,
      type: REPORT_TYPE_LABELS[row.reportType as ReportType] ?? String(row.reportType),
      createdAt: formatDateTime(row.createdAt),
      editor: row.createdByName ?? '',
    })),
    confirmDelete: Number(url.searchParams.get('delete')) || null,
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const form = await request.formData();
  const settingNo = Number(form.get('setting_no'));
  const result = Number.isInteger(settingNo) && settingNo > 0 ? await deleteRegularReport(getDb(), viewer, storeId, settingNo, new Date()) : null;
  // Success or failure, the list reloads on the regular tab; a failure says 削除に失敗しました。
  return redirect(`${reportUrl.list(storeId, 'reqular')}${result?.ok ? '' : '&failed=1'}`);
}

const tabClass = (active: boolean) => `border-b-2 px-4 py-2 text-sm font-medium ${active ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-700'}`;

export default function ReportsPage() {
  const data = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const failed = searchParams.get('failed') === '1';
  return (
    <StorePage
      title="レポート"
      actions={
        data.removed ? undefined : (
          <Link to={reportUrl.create(data.storeId)} className="btn-primary">
            レポート作成
          </Link>
        )
      }
    >
      <StatusBar tone="error" message={failed ? REPORT_MESSAGES.deleteFailed : null} />
      <nav className="mb-4 flex border-b border-slate-200" aria-label="レポートの種類">
        <Link to={reportUrl.list(data.storeId)} className={tabClass(data.tab === 'history')} aria-current={data.tab === 'history' ? 'page' : undefined}>
          レポート履歴
        </Link>
        <Link to={reportUrl.list(data.storeId, 'reqular')} className={tabClass(data.tab === 'regular')} aria-current={data.tab === 'regular' ? 'page' : undefined}>
          定期レポート
        </Link>
      </nav>
      {data.tab === 'history' ? <HistoryTab data={data} /> : <RegularTab data={data} />}
    </StorePage>
  );
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function HistoryTab({ data }: { data: Data }) {
  const navigate = useNavigate();
  return (
    <div className="space-y-4 pb-10">
      <Form method="get" className="flex items-end gap-3">
        <div>
          <label htmlFor="month" className="label">対象月</label>
          <input id="month" name="month" type="month" className="input" defaultValue={data.month} onChange={(event) => navigate(`?month=${event.target.value}`)} />
        </div>
        <button type="submit" className="btn-secondary">表示</button>
      </Form>
      <ListSection total={data.history.total} page={data.page} pageSize={HISTORY_PAGE_SIZE} message={data.history.total === 0 ? ja.noSearchResults : null} label="レポート履歴">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <th className="px-4 py-2 font-medium">作成日時</th>
              <th className="px-4 py-2 font-medium">レポート名</th>
              <th className="px-4 py-2 font-medium">種類</th>
              <th className="px-4 py-2 font-medium">対象期間</th>
              <th className="px-4 py-2 font-medium">ダウンロード</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.history.rows.map((row) => (
              <tr key={row.historyNo}>
                <td className="whitespace-nowrap px-4 py-2 text-slate-600">{row.createdAt}</td>
                <td className="px-4 py-2 text-slate-800">{row.fileName}</td>
                <td className="px-4 py-2 text-slate-600">{row.type}</td>
                <td className="whitespace-nowrap px-4 py-2 text-slate-600">{row.period}</td>
                <td className="px-4 py-2">
                  {row.state === 'done' ? (
                    <a href={reportUrl.file(data.storeId, row.historyNo)} className="font-medium text-brand-700 hover:underline" download>
                      {row.format}
                    </a>
                  ) : row.state === 'pending' ? (
                    <span className="text-amber-700">{REPORT_MESSAGES.generating}</span>
                  ) : (
                    <span className="text-red-600">{REPORT_MESSAGES.failed}</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListSection>
    </div>
  );
}

function RegularTab({ data }: { data: Data }) {
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<number | null>(null);
  const confirming = data.removed ? null : (deleting ?? data.confirmDelete);
  const listUrl = reportUrl.list(data.storeId, 'reqular');
  return (
    <div className="space-y-4 pb-10">
      <p className="text-sm text-slate-600">{REPORT_MESSAGES.regularNote}</p>
      <section className="card" aria-label="定期レポート">
        {data.regular.length === 0 ? (
          <p className="px-4 py-12 text-center text-sm text-slate-500">{ja.noSearchResults}</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs text-slate-500">
              <tr>
                <th className="px-4 py-2 font-medium">No.</th>
                <th className="px-4 py-2 font-medium">レポート名</th>
                <th className="px-4 py-2 font-medium">種類</th>
                <th className="px-4 py-2 font-medium">作成日時</th>
                <th className="px-4 py-2 font-medium">編集者</th>
                <th className="px-4 py-2 font-medium"><span className="sr-only">削除</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.regular.map((row, index) => (
                <tr
                  key={row.settingNo}
                  className={data.removed ? 'bg-slate-50 text-slate-400' : 'cursor-pointer hover:bg-slate-50'}
                  aria-disabled={data.removed || undefined}
                  onClick={() => !data.removed && confirming === null && navigate(reportUrl.edit(data.storeId, row.settingNo))}
                >
                  <td className="px-4 py-2">{index + 1}</td>
                  <td className="px-4 py-2">
                    {data.removed ? row.name : <Link to={reportUrl.edit(data.storeId, row.settingNo)} className="text-slate-800 hover:underline" onClick={(event) => event.stopPropagation()}>{row.name}</Link>}
                  </td>
                  <td className="px-4 py-2">{row.type}</td>
                  <td className="whitespace-nowrap px-4 py-2">{row.createdAt}</td>
                  <td className="px-4 py-2">{row.editor}</td>
                  <td className="px-4 py-2 text-right">
                    {data.removed ? (
                      <span aria-hidden className="text-slate-300">削除</span>
                    ) : (
                      <Link
                        to={`${listUrl}&delete=${row.settingNo}`}
                        className="text-red-600 hover:underline"
                        aria-label={`${row.name}を削除`}
                        onClick={(event) => {
                          event.preventDefault();
                          event.stopPropagation();
                          setDeleting(row.settingNo);
                        }}
                      >
                        削除
                      </Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {confirming !== null && (
        <Modal role="alertdialog" labelledBy="delete-title" onClose={() => (setDeleting(null), navigate(listUrl, { replace: true }))}>
          <h2 id="delete-title" className="text-base font-semibold text-slate-800">{REPORT_MESSAGES.deleteConfirm}</h2>
          <Form method="post" action={listUrl} className="mt-6 flex justify-end gap-2" onSubmit={() => setDeleting(null)}>
            <input type="hidden" name="setting_no" value={confirming} />
            <Link
              to={listUrl}
              className="btn-secondary"
              onClick={(event) => {
                event.preventDefault();
                setDeleting(null);
                if (data.confirmDelete) navigate(listUrl, { replace: true });
              }}
            >
              キャンセル
            </Link>
            <button type="submit" className="btn-danger" autoFocus>削除</button>
          </Form>
        </Modal>
      )}
    </div>
  );
}
