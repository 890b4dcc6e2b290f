import { z } from 'zod';
import { DIAGRAM_CONTENT_TYPES, DiagramImageQuerySchema, DiagramListQuerySchema, DiagramUploadSchema, SensorPositionSchema, SensorPositionsSchema, SetStoreDiagramSchema } from '../diagram';
import { body, defineCall, fileAnswer, jsonAnswer, query } from './call';

// Floor-plan diagrams and the sensors' places on them (000 §4, §7; docs/decisions/050-diagrams.md).

const DiagramSchema = z.strictObject({ diagram_id: z.number().int(), diagram_name: z.string() });

export const DiagramListAnswerSchema = z.array(DiagramSchema);
export const CreatedDiagramsAnswerSchema = z.array(DiagramSchema.extend({ content_type: z.string() }));
export const StoreDiagramAnswerSchema = z.strictObject({ store_id: z.string(), diagram_id: z.number().int().nullable() });
const PlacedSchema = z.strictObject({ equipment_id: z.number().int(), position_x: z.number(), position_y: z.number() });
export const SavedPositionsAnswerSchema = z.strictObject({ saved: z.number().int(), positions: z.array(PlacedSchema) });

export const listDiagrams = defineCall('listDiagrams', 'GET /on-reco/v1/diagram', {
  summary: 'The diagrams a store may use: its own, then the chain\'s templates',
  access: { kind: 'user', store: 'store_id' },
  input: query(DiagramListQuerySchema),
  answer: jsonAnswer(DiagramListAnswerSchema, 'diagram_id, diagram_name.'),
});

export const uploadDiagrams = defineCall('uploadDiagrams', 'POST /on-reco/v1/diagram', {
  summary: 'Upload diagram files (PDF, PNG, JPEG, SVG; at most 5 of 10 MB) for a store',
  description: 'multipart/form-data: store_id and the files in item_images[]; each file is typed by its bytes.',
  access: { kind: 'user', permission: 'editDiagram', store: 'store_id' },
  input: body(DiagramUploadSchema, { encoding: 'multipart', files: 'item_images[]' }),
  answer: jsonAnswer(CreatedDiagramsAnswerSchema, 'The diagrams created.', [201]),
  errors: [
    { status: 400, error: 'invalid_request', when: 'no file, too many files, a file of another type or an unsafe SVG' },
    { status: 413, error: 'payload_too_large', when: 'a file is larger than 10 MB' },
  ],
});

export const getDiagramImage = defineCall('getDiagramImage', 'GET /on-reco/v1/diagram/image', {
  summary: 'A diagram\'s file',
  description: 'A template, or a diagram of a store the user may see; download=1 asks for an attachment.',
  input: query(DiagramImageQuerySchema),
  answer: fileAnswer(DIAGRAM_CONTENT_TYPES, 'The file with its content type.'),
  errors: [{ status: 404, error: 'not_found', when: 'no such diagram the user may see' }],
  references: { diagram_id: 'diagram' },
});

export const setStoreDiagram = defineCall('setStoreDiagram', 'POST /on-reco/v1/stores/diagram', {
  summary: 'Choose the store\'s diagram (one of its own or a template; 0 or null clears it)',
  access: { kind: 'user', permission: 'editDiagram', store: 'store_id' },
  input: body(SetStoreDiagramSchema),
  answer: jsonAnswer(StoreDiagramAnswerSchema, 'The store and its diagram.'),
  errors: [{ status: 404, error: 'not_found', when: 'diagram_id is not a diagram of this store or a template' }],
  references: { diagram_id: 'diagram' },
});

export const saveSensorPositions = defineCall('saveSensorPositions', 'POST /on-reco/v1/equipments/position', {
  summary: 'Place sensors on their store\'s diagram ((0, 0) removes one), in one transaction',
  description: 'One {equipment_id, position_x, position_y} or an array of them; map units x 0-1200, y 0-500.',
  access: { kind: 'user', permission: 'editDiagram' },
  input: body(SensorPositionsSchema, { documented: z.union([SensorPositionSchema, z.array(SensorPositionSchema)]) }),
  answer: jsonAnswer(SavedPositionsAnswerSchema, 'How many were saved, and the positions as stored.'),
  errors: [
    { status: 404, error: 'not_found', when: 'a sensor that does not exist or is in a store the user may not see' },
    { status: 400, error: 'invalid_request', when: 'more than 20 sensors would be placed on one store\'s diagram' },
  ],
  references: { equipment_id: 'equipment' },
});
