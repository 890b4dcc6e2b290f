// A sensor's alert status (000 §3, §4: 0 none, 1 warning, 2 error): the one owner of its codes
// and rules. The alert engine computes it; the sensor views, the floor plan, the alert texts and
// the measurements model read it here; lint refuses comparing a sensor status with a number literal.

export const SENSOR_STATUS = { normal: 0, warning: 1, error: 2 } as const;
export type SensorStatus = (typeof SENSOR_STATUS)[keyof typeof SENSOR_STATUS];

/** A stored value as a status: anything but 1 or 2 is normal. */
export const asSensorStatus = (value: number | null | undefined): SensorStatus => (value === SENSOR_STATUS.warning || value === SENSOR_STATUS.error ? value : SENSOR_STATUS.normal);

/** 2: an open alert other than battery low (the error style, the confirmed wording of temperature alerts). */
export const isSensorError = (status: number): boolean => status === SENSOR_STATUS.error;

/** 1: battery low or a pending excursion. */
export const isSensorWarning = (status: number): boolean => status === SENSOR_STATUS.warning;
