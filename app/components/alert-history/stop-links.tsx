import { Link } from '@remix-run/react';
import { type StoppableAlertView, STOP_ACTION_LABEL } from '~/domain/alert-history';

/**
 * The alerts that may be stopped now, each with 警報を停止: a link to 警報履歴's stop dialog for
 * that row (the same dialog, action and audit as the list's stop; decision 250). Nothing when no
 * alert is open.
 */
export function StopAlertLinks({ alerts, showSensor = false, className = '' }: { alerts: readonly StoppableAlertView[]; showSensor?: boolean; className?: string }) {
  if (alerts.length === 0) return null;
  return (
    <ul className={`space-y-2 ${className}`} aria-label="発生中の警報" data-testid="stoppable-alerts">
      {alerts.map((alert) => (
        <li key={alert.id} className="flex flex-wrap items-center gap-x-3 gap-y-1.5 rounded-md bg-red-50 px-3 py-2 ring-1 ring-inset ring-red-200">
          <p className="min-w-0 flex-1 text-xs">
            {showSensor && <span className="mr-1.5 font-semibold text-slate-800">{alert.sensorName}</span>}
            <span className="font-semibold text-red-700">{alert.alertText}</span>
            <span className="block tabular-nums text-slate-600">発生 {alert.startedAt}</span>
          </p>
          <Link
            to={alert.stopHref}
            className="btn-danger min-h-[2.75rem] px-3 py-1.5 text-sm"
            aria-label={`${STOP_ACTION_LABEL}: ${alert.sensorName} ${alert.alertText}`}
          >
            {STOP_ACTION_LABEL}
          </Link>
        </li>
      ))}
    </ul>
  );
}
