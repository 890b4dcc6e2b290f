import { ThermometerIcon } from '~/components/icons';
import { NO_SENSOR_TEXT } from '~/domain/sensor-view';

/** The empty state of the sensor views (000 §2). */
export function EmptySensors() {
  return (
    <div className="card flex flex-col items-center justify-center gap-3 px-6 py-16 text-center">
      <span className="rounded-full bg-slate-100 p-4 text-slate-400">
        <ThermometerIcon className="h-8 w-8" />
      </span>
      <p className="text-sm font-medium text-slate-600">{NO_SENSOR_TEXT}</p>
    </div>
  );
}
