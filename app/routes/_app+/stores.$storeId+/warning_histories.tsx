import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { useActionData, useLocation, useSearchParams } from '@remix-run/react';
import { CategoryMenu } from '~/components/alert-history/category-menu';
import { CsvDownloadButton } from '~/components/alert-history/csv-download';
import { DateRangeForm } from '~/components/alert-history/date-range-form';
import { HistoryTable } from '~/components/alert-history/history-table';
import { searchWith } from '~/components/alert-history/links';
import { MessageDialog, StopDialog } from '~/components/alert-history/stop-dialog';
import { ListSection, StorePage } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import {
  ALERT_HISTORY_MESSAGES,
  ALERT_HISTORY_PAGE_SIZE,
  AlertStopSchema,
  alertHistoryPageQuerySchema,
  alertHistoryRowView,
  defaultDateRange,
  isStoppable,
  resolveCategory,
  sensorCategories,
} from '~/domain/alert-history';
import { findAlertRecord, listAlertHistory, listMenuSensors, resolvePageFilter } from '~/models/alert-history.server';
import { requireStoreUser } from '~/http/access.server';
import { stopActiveAlert } from '~/services/alert-stop.server';
import { fieldErrors } from '~/http/api.server';
import { storeUrl } from '~/domain/urls';

export const meta: MetaFunction = () => [{ title: '警報履歴 | On-Reco' }];

// /stores/{store_id}/warning_histories (000 §2 "Alert history"): the category menu, the date
// range, ten rows a page, the CSV and the stop dialog. Refreshes on store events and every 60 s.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const db = getDb();
  const now = new Date();
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = alertHistoryPageQuerySchema(now).safeParse(search);
  if (!parsed.success) {
    // Bad dates: the form shows the field errors with what was typed; the list waits for valid ones.
    const sensors = await listMenuSensors(db, viewer, storeId);
    const defaults = defaultDateRange(now);
    return json({
      storeId,
      errors: fieldErrors(parsed.error),
      startDate: search.start_date ?? defaults.startDate,
      endDate: search.end_date ?? defaults.endDate,
      categories: sensorCategories(sensors, viewer.language),
      selection: resolveCategory({ kind: null, equipmentIds: null }, sensors).selection,
      pageNo: 1,
      stopRow: null,
      list: null,
    });
  }
  const query = parsed.data;
  const { sensors, selection, filter } = await resolvePageFilter(db, viewer, storeId, query);
  const page = await listAlertHistory(db, viewer, filter, { pageNo: query.pageNo, pageCount: ALERT_HISTORY_PAGE_SIZE });
  const rows = page.records.map((record) => alertHistoryRowView(record, storeId, viewer.language));
  // The stop dialog opened from the sensor pop-up or the graph: its row need not be on this page of the list.
  const stopRecord = query.stop === null ? null : (page.records.find((record) => record.alertHistoryId === query.stop) ?? (await findAlertRecord(db, viewer, storeId, query.stop)));
  const stopRow = stopRecord && isStoppable(stopRecord) ? alertHistoryRowView(stopRecord, storeId, viewer.language) : null;
  return json({
    storeId,
    errors: {} as Record<string, string>,
    startDate: query.range.startDate,
    endDate: query.range.endDate,
    categories: sensorCategories(sensors, viewer.language),
    selection,
    pageNo: query.pageNo,
    stopRow,
    list: { allCount: page.allCount, rows },
  });
}

// The stop dialog's form. Any user who can see the store may stop its alerts (decision 040).
export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const form = Object.fromEntries(await request.formData());
  const parsed = AlertStopSchema.safeParse(form);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    if (fields.comment) return json({ ok: false as const, commentError: fields.comment, comment: String(form.comment ?? ''), message: null }, { status: 400 });
    return json({ ok: false as const, commentError: null, comment: '', message: ALERT_HISTORY_MESSAGES.stopFailed }, { status: 400 });
  }
  const input = parsed.data;
  const outcome = await stopActiveAlert(getDb(), viewer, { equipmentId: input.equipment_id, alertId: input.alert_id, comment: input.comment, storeId });
  if (!outcome) return json({ ok: false as const, commentError: null, comment: '', message: ALERT_HISTORY_MESSAGES.stopFailed }, { status: 404 });
  // 000 §4: after a successful stop the history reloads on the current page.
  const url = new URL(request.url);
  for (const internal of ['stop', 'index', '_data', '_routes']) url.searchParams.delete(internal);
  return redirect(`${url.pathname}${url.search}`);
}

export const clientLoader = liveClientLoader;

export default function WarningHistoriesPage() {
  const { data, staleSince } = useLiveData<typeof loader>();
  const result = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const list = data.list;
  const closeHref = `${location.pathname}${searchWith(searchParams, { stop: null })}`;
  const csvHref = storeUrl.alertHistoryCsv(data.storeId, searchWith(searchParams, { stop: null, page_no: null }));
  const stopRow = data.stopRow;
  const failure = result && !result.ok ? result.message : null;
  return (
    <StorePage title="警報履歴" actions={<CsvDownloadButton href={csvHref} />}>
      <StaleDataMark since={staleSince} />
      <div className="flex flex-col-reverse gap-4 lg:flex-row lg:items-start">
        <div className="min-w-0 flex-1">
          <DateRangeForm key={`${data.startDate}-${data.endDate}`} startDate={data.startDate} endDate={data.endDate} selection={data.selection} errors={data.errors} />
          <ListSection
            label="警報履歴一覧"
            total={list ? list.allCount : null}
            page={data.pageNo}
            pageSize={ALERT_HISTORY_PAGE_SIZE}
            message={!list ? '期間を正しく指定してください' : list.rows.length === 0 ? ALERT_HISTORY_MESSAGES.noRows : null}
          >
            {list && <HistoryTable rows={list.rows} />}
          </ListSection>
        </div>
        <aside className="w-full shrink-0 lg:sticky lg:top-16 lg:max-h-[calc(100vh-5rem)] lg:w-48 lg:overflow-y-auto xl:w-56">
          <CategoryMenu categories={data.categories} selection={data.selection} />
        </aside>
      </div>
      {failure ? (
        <MessageDialog message={failure} okHref={closeHref} />
      ) : (
        stopRow && (
          <StopDialog
            key={stopRow.id}
            row={stopRow}
            cancelHref={closeHref}
            commentError={result && !result.ok ? (result.commentError ?? undefined) : undefined}
            initialComment={result && !result.ok ? result.comment : ''}
          />
        )
      )}
    </StorePage>
  );
}

export function ErrorBoundary() {
  return <PageError title="警報履歴" />;
}
