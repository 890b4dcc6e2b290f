import { MeasurementCommentAnswerSchema, MeasurementCommentSchema, MeasurementCsvQuerySchema } from '../graph-schemas';
import { SensorDetailAnswerSchema } from '../sensor-settings';
import {
  EquipmentQuerySchema,
  MeasurementAnswerSchema,
  MeasurementQuerySchema,
  StoreSensorsAnswerSchema,
  StoreSensorsQuerySchema,
} from '../sensor-schemas';
import { body, defineCall, fileAnswer, jsonAnswer, query } from './call';

// The sensor views and the temperature graphs (000 §5, §7). A sensor of a store the user may
// not see "does not exist" (404).

const sensorNotFound = { status: 404, error: 'not_found', when: 'a sensor that does not exist or is in a store the user may not see' } as const;

export const listStoreSensors = defineCall('listStoreSensors', 'GET /on-reco/v1/store_sensors', {
  summary: 'The store\'s sensors with their live state',
  access: { kind: 'user', store: 'store_id' },
  input: query(StoreSensorsQuerySchema),
  answer: jsonAnswer(StoreSensorsAnswerSchema, 'The store\'s name and sensors (hidden ones with include_hidden=1).'),
});

export const getEquipment = defineCall('getEquipment', 'GET /on-reco/v1/equipments', {
  summary: 'One sensor\'s detail',
  input: query(EquipmentQuerySchema),
  answer: jsonAnswer(SensorDetailAnswerSchema, 'The sensor\'s settings: 000 §3\'s fields, 001 §3 "Sensor detail" and updated_at (the save\'s concurrency token).'),
  errors: [sensorNotFound],
  references: { equipment_id: 'equipment' },
});

export const readMeasurements = defineCall('readMeasurements', 'GET /on-reco/v1/equipments/measurement', {
  summary: 'A sensor\'s status, alerts and readings (at most 31 days), or its latest reading',
  input: query(MeasurementQuerySchema),
  answer: jsonAnswer(MeasurementAnswerSchema, 'Readings oldest first; DEF inside defrost ranges with convert_def=1.'),
  errors: [sensorNotFound],
  references: { equipment_id: 'equipment' },
});

export const measurementCsv = defineCall('measurementCsv', 'GET /on-reco/v1/equipments/measurement/csv', {
  summary: 'The readings of sensors as CSV (at most 31 days)',
  input: query(MeasurementCsvQuerySchema),
  answer: fileAnswer(['text/csv'], 'equipments_measurement.csv, UTF-8 with a BOM, sensor by sensor in the order asked.'),
  errors: [sensorNotFound],
  references: { equipment_id: 'equipment' },
});

export const commentMeasurement = defineCall('commentMeasurement', 'POST /on-reco/v1/equipments/measurement/comment', {
  summary: 'Comment the reading nearest to start_date (an empty comment removes it)',
  input: body(MeasurementCommentSchema),
  answer: jsonAnswer(MeasurementCommentAnswerSchema, 'The reading\'s own start_date and its comment.'),
  errors: [sensorNotFound, { status: 400, error: 'invalid_request', when: 'the sensor does not take comments, or no reading within 5 minutes of start_date' }],
  references: { equipment_id: 'equipment' },
});
