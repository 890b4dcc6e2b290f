import { Form, Link, useLocation, useNavigate, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ChevronIcon, CloseIcon, DownloadIcon } from '~/components/icons';
import {
  GRAPH_TEXTS,
  GRAPH_UNIT_LABELS,
  GRAPH_UNITS,
  NEXT_LABELS,
  type GraphPanelView,
  type PanelState,
  PREVIOUS_LABELS,
  denseSeries,
  hasPoints,
  seriesPoints,
  otherPanelFields,
  panelFieldName,
  panelsSearch,
  parsePanels,
  removePanel,
  slotLabel,
  slotTime,
  withPanel,
} from '~/domain/graph';
import { toCompactDateTime } from '~/domain/japan-time';
import { RetentionNote } from '~/components/retention-note';
import { CommentDialog, type CommentTarget } from './comment-dialog';
import { LazyChart } from './lazy-chart';
import { type MenuSensor, SensorMenu } from './sensor-menu';
import type { ChartSensor } from './temperature-chart.client';
import { storeUrl } from '~/domain/urls';

interface GraphPanelProps {
  index: number;
  storeId: string;
  states: PanelState[];
  panel: GraphPanelView;
  sensors: MenuSensor[];
  today: string;
}

const dashed = (date: string) => `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`;

/**
 * One graph panel (000 §2): the unit (日/週/月), the date navigation and picker, the CSV link and,
 * except on the first panel, a delete button; the chart; and the right side menu of kinds and
 * sensors. Every control is a link or a GET form field, so the panel works without JavaScript;
 * with it, changes apply at once.
 */
export function GraphPanel({ index, storeId, states, panel, sensors, today }: GraphPanelProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  const [hydrated, setHydrated] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect
  useEffect(() => setHydrated(true), []);
  const [commentTarget, setCommentTarget] = useState<CommentTarget | null>(null);
  const closeComment = useCallback(() => setCommentTarget(null), []);

  // While a change is on its way, the controls show it at once and further changes build on it:
  // first what this panel just asked for (until the page's data changes), then the pending navigation.
  const [asked, setAsked] = useState<{ from: PanelState[]; next: PanelState[] } | null>(null);
  const pending = navigation.state === 'loading' && navigation.location.pathname === location.pathname ? parsePanels(new URLSearchParams(navigation.location.search), today) : null;
  const base = asked && asked.from === states ? asked.next : (pending ?? states);
  const target = base[index] ?? states[index];
  // The overlay shows while this panel's own data is being reloaded (not for the other panel's changes).
  const busy = JSON.stringify(target) !== JSON.stringify(states[index]);
  const hrefWith = (change: Partial<PanelState>) => `?${panelsSearch(withPanel(base, index, change))}`;
  const go = (change: Partial<PanelState>) => {
    setAsked({ from: states, next: withPanel(base, index, change) });
    navigate(hrefWith(change), { preventScrollReset: true });
  };
  const bySensor = useMemo(() => new Map(sensors.map((sensor) => [sensor.equipmentId, sensor])), [sensors]);
  const targetIds = target.equipmentIds;
  const selected = useMemo(
    () => new Set(targetIds === null ? sensors.map((sensor) => sensor.equipmentId) : targetIds.filter((id) => bySensor.has(id))),
    [targetIds, sensors, bySensor],
  );
  const period = useMemo(() => ({ unit: panel.unit, sinceMs: panel.sinceMs, stepMinutes: panel.stepMinutes, slotCount: panel.slotCount }), [panel.unit, panel.sinceMs, panel.stepMinutes, panel.slotCount]);
  const chartSensors = useMemo<ChartSensor[]>(
    () =>
      panel.series.flatMap((series) => {
        const sensor = bySensor.get(series.equipmentId);
        if (!sensor) return [];
        const comments: Record<number, string[]> = {};
        for (const comment of series.comments) (comments[comment.slot] ??= []).push(comment.comment);
        return [
          {
            equipmentId: sensor.equipmentId,
            name: sensor.equipmentName,
            colour: sensor.colour,
            commentRequired: sensor.commentRequired,
            values: denseSeries(seriesPoints(series), panel.slotCount),
            comments,
            defrost: panel.defrost.find((d) => d.equipmentId === sensor.equipmentId)?.ranges ?? [],
          },
        ];
      }),
    [panel.series, panel.defrost, panel.slotCount, bySensor],
  );
  const openComment = useCallback(
    (equipmentId: number, slot: number) => {
      const sensor = bySensor.get(equipmentId);
      const existing = panel.series.find((series) => series.equipmentId === equipmentId)?.comments.find((comment) => comment.slot === slot);
      if (!sensor) return;
      const axis = { unit: panel.unit, since: new Date(panel.sinceMs), stepMinutes: panel.stepMinutes };
      setCommentTarget({
        equipmentId,
        sensorName: sensor.equipmentName,
        colour: sensor.colour,
        label: slotLabel(axis, slot),
        startDate: existing?.startDate ?? toCompactDateTime(slotTime(axis, slot)),
        comment: existing?.comment ?? '',
      });
    },
    [bySensor, panel.series, panel.unit, panel.sinceMs, panel.stepMinutes],
  );

  const hasData = panel.series.some(hasPoints);
  const message = panel.selected.length === 0 ? GRAPH_TEXTS.noSelection : panel.retention?.whole ? panel.retention.text : hasData ? null : GRAPH_TEXTS.noData;
  const commentable = panel.selected.some((id) => bySensor.get(id)?.commentRequired);
  // Which sensors take comments, said before anyone tries (issue 33 item 4), with a way to show only them.
  const commentableIds = sensors.filter((sensor) => sensor.commentRequired).map((sensor) => sensor.equipmentId);
  const onlyCommentable = commentableIds.length === panel.selected.length && commentableIds.every((id) => panel.selected.includes(id));
  const csvHref = storeUrl.graphsCsv(storeId, { equipment_id: panel.selected.join(','), unit: panel.unit, start_date: panel.startDate });
  const navButton = 'inline-flex h-9 items-center gap-1 rounded-md border border-slate-300 bg-white px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-50';

  return (
    <section className="card" aria-label={`グラフ${index + 1}`} data-testid="graph-panel">
      <Form method="get" preventScrollReset>
        {otherPanelFields(states, index).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={panelFieldName(index, 'unit')} value={panel.unit} />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-3">
          <div className="inline-flex overflow-hidden rounded-md border border-slate-300" role="group" aria-label="単位">
            {GRAPH_UNITS.map((unit) => (
              <Link
                key={unit}
                to={hrefWith({ unit })}
                preventScrollReset
                aria-current={panel.unit === unit ? 'true' : undefined}
                className={`px-4 py-1.5 text-sm font-semibold ${unit !== 'day' ? 'border-l border-slate-300' : ''} ${
                  panel.unit === unit ? 'bg-brand-600 text-white' : 'bg-white text-slate-600 hover:bg-slate-50'
                }`}
              >
                {GRAPH_UNIT_LABELS[unit]}
              </Link>
            ))}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Link to={hrefWith({ date: panel.previousDate })} preventScrollReset className={navButton}>
              <ChevronIcon direction="left" className="h-4 w-4" />
              {PREVIOUS_LABELS[panel.unit]}
            </Link>
            <span className="min-w-[7rem] text-center text-sm font-semibold text-slate-800" data-testid="graph-period">
              {panel.label}
            </span>
            {panel.nextDate ? (
              <Link to={hrefWith({ date: panel.nextDate })} preventScrollReset className={navButton}>
                {NEXT_LABELS[panel.unit]}
                <ChevronIcon direction="right" className="h-4 w-4" />
              </Link>
            ) : (
              <span className={`${navButton} cursor-not-allowed opacity-40`} aria-disabled="true">
                {NEXT_LABELS[panel.unit]}
                <ChevronIcon direction="right" className="h-4 w-4" />
              </span>
            )}
            <input
              type="date"
              name={panelFieldName(index, 'start_date')}
              defaultValue={dashed(panel.date)}
              key={panel.date}
              max={dashed(today)}
              aria-label="日付"
              className="input h-9 w-40 py-1"
              onChange={(event) => {
                const value = event.currentTarget.value.replaceAll('-', '');
                if (/^\d{8}$/.test(value)) go({ date: value });
              }}
            />
            {!hydrated && (
              <button type="submit" className="btn-secondary h-9 py-1">
                {GRAPH_TEXTS.show}
              </button>
            )}
          </div>
          <div className="ml-auto flex items-center gap-2">
            {panel.selected.length > 0 ? (
              <a href={csvHref} download className="btn-secondary h-9 py-1" data-testid="graph-csv">
                <DownloadIcon className="h-4 w-4" />
                {GRAPH_TEXTS.csv}
              </a>
            ) : (
              <span className="btn-secondary h-9 cursor-not-allowed py-1 opacity-50" aria-disabled="true">
                <DownloadIcon className="h-4 w-4" />
                {GRAPH_TEXTS.csv}
              </span>
            )}
            {index > 0 && (
              <Link
                to={`?${panelsSearch(removePanel(states, index))}`}
                preventScrollReset
                className="inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100"
                aria-label={GRAPH_TEXTS.removePanel}
                title={GRAPH_TEXTS.removePanel}
              >
                <CloseIcon className="h-5 w-5" />
              </Link>
            )}
          </div>
        </div>
        <div className="flex flex-col lg:flex-row">
          <div className="min-w-0 flex-1 px-3 pb-3 pt-4">
            <p className="mb-2 flex flex-wrap items-center gap-x-2 gap-y-1 px-1 text-xs text-slate-600" data-testid="commentable-sensors">
              {commentableIds.length === 0 ? (
                GRAPH_TEXTS.noCommentableSensor
              ) : (
                <>
                  <span>
                    <span className="font-semibold">{GRAPH_TEXTS.commentableSensors}:</span> {commentableIds.map((id) => bySensor.get(id)?.equipmentName).join('、')}
                  </span>
                  {!onlyCommentable && (
                    <Link
                      to={hrefWith({ equipmentIds: commentableIds })}
                      preventScrollReset
                      onClick={(event) => {
                        event.preventDefault();
                        go({ equipmentIds: commentableIds });
                      }}
                      className="inline-flex min-h-[2rem] items-center rounded-md border border-slate-300 bg-white px-2.5 font-medium text-brand-700 hover:bg-slate-50"
                    >
                      {GRAPH_TEXTS.showCommentableOnly}
                    </Link>
                  )}
                </>
              )}
            </p>
            {panel.retention && !panel.retention.whole && <RetentionNote text={panel.retention.text} className="mb-2" />}
            <div className="h-[400px]">
              <LazyChart
                busy={busy}
                message={message}
                periodLabel={panel.label}
                period={period}
                sensors={chartSensors}
                yRange={panel.yRange}
                thresholdBands={panel.thresholdBands}
                limits={panel.limits}
                limitSteps={panel.limitSteps}
                alertStops={panel.alertStops}
                onPointClick={openComment}
              />
            </div>
            <Legend defrost={panel.defrost.length > 0} alertStop={panel.alertStops.length > 0} limits={panel.limits.length > 0} commentable={commentable} />
          </div>
          <aside className="w-full shrink-0 border-t border-slate-200 lg:h-[460px] lg:w-64 lg:border-l lg:border-t-0" aria-label="センサ選択">
            <SensorMenu
              sensors={sensors}
              selected={selected}
              fieldName={panelFieldName(index, 'equipment_id')}
              hrefFor={(equipmentIds) => hrefWith({ equipmentIds })}
              onChange={(equipmentIds) => go({ equipmentIds })}
            />
          </aside>
        </div>
      </Form>
      {commentTarget && <CommentDialog key={`${commentTarget.equipmentId}-${commentTarget.startDate}`} target={commentTarget} onClose={closeComment} />}
    </section>
  );
}

/** What the shading and marks mean; only the items the chart shows. */
function Legend({ defrost, alertStop, limits, commentable }: { defrost: boolean; alertStop: boolean; limits: boolean; commentable: boolean }) {
  if (!defrost && !alertStop && !limits && !commentable) return null;
  return (
    <ul className="mt-2 flex flex-wrap items-center gap-x-5 gap-y-1 px-1 text-xs text-slate-500">
      {defrost && (
        <li className="flex items-center gap-1.5">
          <span className="h-3 w-5 rounded-sm bg-slate-400/25" aria-hidden />
          {GRAPH_TEXTS.defrost}（センサの色）
        </li>
      )}
      {alertStop && (
        <li className="flex items-center gap-1.5">
          <span className="h-3 w-5 rounded-sm border border-slate-300 bg-[repeating-linear-gradient(135deg,rgba(100,116,139,.35)_0_1px,transparent_1px_5px)]" aria-hidden />
          {GRAPH_TEXTS.alertStop}
        </li>
      )}
      {limits && (
        <li className="flex items-center gap-1.5">
          <span className="w-5 border-t-2 border-dashed border-red-600" aria-hidden />
          {GRAPH_TEXTS.limits}
        </li>
      )}
      {commentable && (
        <li className="flex items-center gap-1.5">
          <span className="h-2.5 w-2.5 rotate-45 border-2 border-slate-500 bg-white" aria-hidden />
          {GRAPH_TEXTS.commentHint}
        </li>
      )}
    </ul>
  );
}
