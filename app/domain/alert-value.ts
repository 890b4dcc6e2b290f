import type { Language } from './alert-codes';
import { formatDegrees, roundTenth } from './format';
import { textsFor } from './texts';

// The value of a temperature alert, wherever it is shown (警報履歴, its CSV and API, the alert
// mails). With a time constant the engine checks the simulated (damped) product temperature
// against the limits, not the reading (decision 240): a raw 5.0 ℃ inside 0–10 ℃ can open an
// alert. The one label for that: 推定品温 x.x ℃（実測 y.y ℃）(decision 278).

/** Whether the simulated value says something the reading does not (they differ at 0.1 ℃). */
export function isDamped(measured: number | null, simulated: number | null): simulated is number {
  return simulated !== null && measured !== null && roundTenth(simulated) !== roundTenth(measured);
}

/** The labelled value when the simulation damped it, else the reading alone ("5.0℃", -- when none). */
export function alertValueText(value: { measured: number | null; simulated: number | null }, language: Language): string {
  if (!isDamped(value.measured, value.simulated)) return formatDegrees(value.measured);
  return textsFor(language).simulatedValue(formatDegrees(value.simulated), formatDegrees(value.measured));
}
