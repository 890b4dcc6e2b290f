import { type AcknowledgedAlertView, ACKNOWLEDGEMENT_LABELS } from '~/domain/alert-history';

/** The alerts of the sensors drawn that someone acknowledged: the alert, and who did what when. */
export function AcknowledgedAlerts({ alerts }: { alerts: readonly AcknowledgedAlertView[] }) {
  if (alerts.length === 0) return null;
  return (
    <section className="card p-3" aria-labelledby="acknowledged-alerts-title">
      <h2 id="acknowledged-alerts-title" className="mb-2 text-sm font-semibold text-slate-800">
        {ACKNOWLEDGEMENT_LABELS.listTitle}
      </h2>
      <ul className="space-y-2" data-testid="acknowledged-alerts">
        {alerts.map((alert) => (
          <li key={alert.id} className="rounded-md bg-emerald-50 px-3 py-2 text-xs ring-1 ring-inset ring-emerald-200">
            <p>
              <span className="mr-1.5 font-semibold text-slate-800">{alert.sensorName}</span>
              <span className="font-semibold text-slate-700">{alert.alertText}</span>
              <span className="ml-1.5 tabular-nums text-slate-600">発生 {alert.startedAt}</span>
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words text-emerald-900" data-testid="alert-acknowledgement">
              {alert.acknowledgement}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
