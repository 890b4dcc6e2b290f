import { MeasurementCommentAnswerSchema, MeasurementCommentSchema, MeasurementCsvQuerySchema } from '../graph-schemas';
import {
  EquipmentAnswerSchema,
  EquipmentQuerySchema,
  MeasurementAnswerSchema,
  MeasurementQuerySchema,
  StoreSensorsAnswerSchema,
  StoreSensorsQuerySchema,
} from '../sensor-schemas';
import { defineCall } from './call';

// The sensor views and the temperature graphs (000 §5, §7). A sensor of a store the user may
// not see "does not exist" (404).

const sensorNotFound = { status: 404, error: 'not_found', when: 'a sensor that does not exist or is in a store the user may not see' } as const;

export const listStoreSensors = defineCall({
  id: 'listStoreSensors',
  method: 'GET',
  path: '/on-reco/v1/store_sensors',
  summary: 'The store\'s sensors with their live state',
  access: { kind: 'user', store: 'store_id' },
  input: { in: 'query', schema: StoreSensorsQuerySchema },
  answer: { statuses: [200], json: StoreSensorsAnswerSchema, description: 'The store\'s name and sensors (hidden ones with include_hidden=1).' },
});

export const getEquipment = defineCall({
  id: 'getEquipment',
  method: 'GET',
  path: '/on-reco/v1/equipments',
  summary: 'One sensor\'s detail',
  access: { kind: 'user' },
  input: { in: 'query', schema: EquipmentQuerySchema },
  answer: { statuses: [200], json: EquipmentAnswerSchema, description: 'The sensor\'s settings.' },
  errors: [sensorNotFound],
  references: { equipment_id: 'equipment' },
});

export const readMeasurements = defineCall({
  id: 'readMeasurements',
  method: 'GET',
  path: '/on-reco/v1/equipments/measurement',
  summary: 'A sensor\'s status, alerts and readings (at most 31 days), or its latest reading',
  access: { kind: 'user' },
  input: { in: 'query', schema: MeasurementQuerySchema },
  answer: { statuses: [200], json: MeasurementAnswerSchema, description: 'Readings oldest first; DEF inside defrost ranges with convert_def=1.' },
  errors: [sensorNotFound],
  references: { equipment_id: 'equipment' },
});

export const measurementCsv = defineCall({
  id: 'measurementCsv',
  method: 'GET',
  path: '/on-reco/v1/equipments/measurement/csv',
  summary: 'The readings of sensors as CSV (at most 31 days)',
  access: { kind: 'user' },
  input: { in: 'query', schema: MeasurementCsvQuerySchema },
  answer: { statuses: [200], file: ['text/csv'], description: 'equipments_measurement.csv, UTF-8 with a BOM, sensor by sensor in the order asked.' },
  errors: [sensorNotFound],
  references: { equipment_id: 'equipment' },
});

export const commentMeasurement = defineCall({
  id: 'commentMeasurement',
  method: 'POST',
  path: '/on-reco/v1/equipments/measurement/comment',
  summary: 'Comment the reading nearest to start_date (an empty comment removes it)',
  access: { kind: 'user' },
  input: { in: 'body', encoding: 'json-or-form', schema: MeasurementCommentSchema },
  answer: { statuses: [200], json: MeasurementCommentAnswerSchema, description: 'The reading\'s own start_date and its comment.' },
  errors: [sensorNotFound, { status: 400, error: 'invalid_request', when: 'the sensor does not take comments, or no reading within 5 minutes of start_date' }],
  references: { equipment_id: 'equipment' },
});
