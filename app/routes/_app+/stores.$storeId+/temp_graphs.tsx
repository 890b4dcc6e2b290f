import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, json, redirect } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { GraphPanel } from '~/components/graphs/graph-panel';
import { StopAlertLinks } from '~/components/alert-history/stop-links';
import { AcknowledgedAlerts } from '~/components/alert-history/acknowledged-alerts';
import { acknowledgedAlertViews, type AlertHistoryRecord, stoppableAlertViews } from '~/domain/alert-history';
import { listAcknowledgedAlerts, listStoppableAlerts } from '~/models/alert-history.server';
import { StorePage } from '~/components/page-kit';
import { PageError } from '~/components/page-error';
import { StaleDataMark } from '~/components/stale-data-mark';
import { liveClientLoader, useLiveData } from '~/components/use-live-updates';
import { getDb } from '~/db/db.server';
import { GRAPH_MAX_PANELS, GRAPH_TEXTS, addPanel, panelsSearch, parsePanels } from '~/domain/graph';
import { MeasurementCommentSchema } from '~/domain/graph-schemas';
import { toCompactDate, toCompactDateTime } from '~/domain/japan-time';
import { listGraphSensors, loadGraphPanel, saveMeasurementComment } from '~/models/graph.server';
import { requireStoreUser } from '~/http/access.server';
import { fieldErrors } from '~/http/api.server';
import { loadAlertStopSchedules } from '~/models/alert-schedules.server';
import { appUrl } from '~/domain/urls';
import { retentionPolicy } from '~/services/retention.server';

export const meta: MetaFunction = () => [{ title: '温度グラフ | On-Reco' }];

// /stores/{store_id}/temp_graphs (000 §2 "Temperature graphs", §9): one or two panels, each with
// its unit, period and checked sensors in the URL (equipment_id, unit, start_date; p2_… for the
// second), so links, the back button and a page without JavaScript all work. Refreshes every 60 s.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const db = getDb();
  const sensors = await listGraphSensors(db, viewer, storeId);
  if (!sensors) throw redirect(appUrl.notFound);
  const now = new Date();
  const today = toCompactDate(now);
  const retention = retentionPolicy(now);
  const states = parsePanels(new URL(request.url).searchParams, today);
  const schedules = await loadAlertStopSchedules(db, storeId);
  const panels = await Promise.all(states.map((panel) => loadGraphPanel(db, viewer, { storeId, sensors, panel, schedules, today, retention })));
  // The open alerts of the sensors drawn, each with 警報を停止 (issue 33 item 2).
  const shown = [...new Set(panels.flatMap((panel) => panel.selected))];
  const openAlerts = shown.length === 0 ? [] : stoppableAlertViews(await listStoppableAlerts(db, viewer, storeId, shown), storeId, viewer.language);
  // Each panel's acknowledged alerts: the corrective action and who took it (issue 28 part 2).
  const acknowledged = new Map<number, AlertHistoryRecord>();
  for (const panel of panels) {
    if (panel.selected.length === 0) continue;
    const period = { since: new Date(panel.sinceMs), until: new Date(panel.sinceMs + panel.slotCount * panel.stepMinutes * 60_000) };
    for (const record of await listAcknowledgedAlerts(db, viewer, storeId, panel.selected, period)) acknowledged.set(record.alertHistoryId, record);
  }
  return json({
    storeId,
    today,
    states,
    sensors: sensors.map(({ defrost: _defrost, ...sensor }) => sensor),
    panels,
    openAlerts,
    acknowledgedAlerts: acknowledgedAlertViews([...acknowledged.values()], viewer.language),
  });
}

// The comment dialog (fetcher): the comment on the reading at a point, for sensors with comment_required = 1.
export async function action({ request, params }: ActionFunctionArgs) {
  const { viewer, storeId } = await requireStoreUser(request, params);
  const parsed = MeasurementCommentSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    return json({ ok: false as const, message: fields.comment ?? GRAPH_TEXTS.commentFailed }, { status: 400 });
  }
  const input = parsed.data;
  const outcome = await saveMeasurementComment(getDb(), viewer, { equipmentId: input.equipment_id, at: input.start_date, comment: input.comment, storeId });
  if (!outcome.ok) return json({ ok: false as const, message: GRAPH_TEXTS.commentFailed }, { status: outcome.reason === 'not_found' ? 404 : 400 });
  return json({ ok: true as const, message: GRAPH_TEXTS.commentSaved, startDate: toCompactDateTime(outcome.measuredAt) });
}

export const clientLoader = liveClientLoader;

export default function TemperatureGraphsPage() {
  // 000 §9: reloaded every 60 s while the tab is visible (no change events: the graph is heavy).
  const {
    data: { storeId, states, sensors, panels, today, openAlerts, acknowledgedAlerts },
    staleSince,
  } = useLiveData<typeof loader>({ events: false });
  const full = states.length >= GRAPH_MAX_PANELS;
  return (
    <StorePage
      title={GRAPH_TEXTS.title}
      wide
      actions={
        // 000 §2: "＋" adds a panel and is ignored once there are two.
        full ? (
          <button type="button" className="btn-secondary h-10 w-10 px-0 text-lg text-slate-400" aria-label={GRAPH_TEXTS.addPanel} title={GRAPH_TEXTS.panelLimit} data-panels={states.length}>
            ＋
          </button>
        ) : (
          <Link
            to={`?${panelsSearch(addPanel(states))}`}
            preventScrollReset
            className="btn-secondary h-10 w-10 px-0 text-lg"
            aria-label={GRAPH_TEXTS.addPanel}
            title={GRAPH_TEXTS.addPanel}
            data-panels={states.length}
          >
            ＋
          </Link>
        )
      }
    >
      <StaleDataMark since={staleSince} />
      {sensors.length === 0 ? (
        <p className="card px-4 py-12 text-center text-sm text-slate-500">{GRAPH_TEXTS.noSensor}</p>
      ) : (
        <div className="space-y-5">
          {openAlerts.length > 0 && (
            <section className="card p-3" aria-label="発生中の警報">
              <StopAlertLinks alerts={openAlerts} showSensor />
            </section>
          )}
          {panels.map((panel, index) => (
            <GraphPanel key={index} index={index} storeId={storeId} states={states} panel={panel} sensors={sensors} today={today} />
          ))}
          <AcknowledgedAlerts alerts={acknowledgedAlerts} />
        </div>
      )}
    </StorePage>
  );
}

export function ErrorBoundary() {
  return <PageError title={GRAPH_TEXTS.title} />;
}
