import { HeardAnswerSchema } from '../../../gateway/protocol';
import {
  HeardReportSchema,
  MeasureTargetKindsAnswerSchema,
  SensorListAnswerSchema,
  SensorListQuerySchema,
  SensorSaveAnswerSchema,
  SensorSaveDocumentedSchema,
  SensorSaveSchema,
  UnregisteredAnswerSchema,
} from '../sensor-settings';
import { IMPORT_MAX_BYTES, ImportAnswerSchema, SensorImportDocumentedSchema, SensorImportRequestSchema } from '../store-import';
import { body, defineCall, jsonAnswer, query } from './call';

// Sensor settings (issue 12; 001 §3, §7): the sensors show page's list, the sensor save (create
// = registration, update with optimistic concurrency), the measured furniture kinds, and the BLE
// sensors a gateway hears that are not registered. 001 leaves the sensor list and update paths
// unshown; they follow GET /v1/equipments (decision 110). Other stores' sensors "do not exist" (404).

export const listEquipments = defineCall('listEquipments', 'GET /on-reco/v1/equipments/list', {
  summary: 'Every sensor of a store with its settings (001 §3 "Sensor (store list)")',
  access: { kind: 'user', permission: 'storeSettings', store: 'store_id' },
  input: query(SensorListQuerySchema),
  answer: jsonAnswer(SensorListAnswerSchema, 'The store\'s sensors, hidden and removed ones included, by location number.'),
});

export const importEquipments = defineCall('importEquipments', 'POST /on-reco/v1/equipments/import', {
  summary: 'Register many sensors of a store at once, all or nothing (onreco sensors import)',
  description:
    'Each sensor as the sensor registration takes it. A serial the store has is left as it is, so importing the same sensors twice changes nothing. Any refusal is 400 with fields named sensors.<j>.<field>, and nothing is written; dry_run answers what would be registered. Decision 153.',
  access: { kind: 'user', permission: 'storeManagement', store: 'store_id' },
  input: body(SensorImportRequestSchema, { encoding: 'json-gzip', maxBytes: IMPORT_MAX_BYTES, documented: SensorImportDocumentedSchema }),
  answer: jsonAnswer(ImportAnswerSchema, 'What was registered (or, with dry_run, would be) and what the store had already.'),
  errors: [{ status: 409, error: 'conflict', when: 'another save registered one of the serials while the import ran; nothing was written, run it again' }],
});

export const saveEquipment = defineCall('saveEquipment', 'POST /on-reco/v1/equipments', {
  summary: 'Register a sensor (no equipment_id) or update one (equipment_id and updated_at)',
  description:
    'The 001 §7 sensor update fields. An update needs storeSettings and the updated_at of the detail it edits: a sensor saved since then is 409 and nothing changes. A registration needs storeManagement and serial_no (the BLE address); the sensor joins the gateway config at its next refresh, and leaves it from its removal date. The next reading is judged with the saved settings.',
  access: { kind: 'user', permission: 'storeSettings', store: 'store_id' },
  input: body(SensorSaveSchema, { documented: SensorSaveDocumentedSchema }),
  answer: jsonAnswer(SensorSaveAnswerSchema, '201 with the new sensor\'s id when registered, 200 when updated; updated_at is the new concurrency token.', [201, 200]),
  errors: [
    { status: 403, error: 'forbidden', when: 'a registration by a user without storeManagement' },
    { status: 404, error: 'not_found', when: 'equipment_id is not a sensor of store_id' },
    { status: 409, error: 'conflict', when: 'the sensor was saved by someone else after updated_at' },
    { status: 400, error: 'duplicate_value', when: 'serial_no is already a sensor of the store' },
  ],
  references: { equipment_id: 'equipment' },
});

export const listMeasureTargetKinds = defineCall('listMeasureTargetKinds', 'GET /on-reco/v1/measure_target_equipments', {
  summary: 'The measured furniture kinds (the sensor form\'s choice)',
  answer: jsonAnswer(MeasureTargetKindsAnswerSchema, 'Each kind\'s id and name.'),
});

export const listUnregisteredSensors = defineCall('listUnregisteredSensors', 'GET /on-reco/v1/equipments/unregistered', {
  summary: 'The BLE sensors the store\'s gateway hears that are not registered',
  access: { kind: 'user', permission: 'storeManagement', store: 'store_id' },
  input: query(SensorListQuerySchema),
  answer: jsonAnswer(UnregisteredAnswerSchema, 'The latest report of each address, newest first.'),
});

export const postHeardSensors = defineCall('postHeardSensors', 'POST /on-reco/v1/gateway/heard', {
  summary: 'The BLE sensors the gateway hears that are not in its config',
  description: 'Kept per store, the latest report per address (an older heard_at never replaces a newer one).',
  access: { kind: 'gateway' },
  input: body(HeardReportSchema),
  answer: jsonAnswer(HeardAnswerSchema.strict(), 'How many addresses were stored.'),
});
