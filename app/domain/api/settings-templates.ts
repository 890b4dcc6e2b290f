import { z } from 'zod';
import {
  TemplateApplyAnswerSchema,
  TemplateApplySchema,
  TemplateDeleteSchema,
  TemplateDivergenceAnswerSchema,
  TemplateDivergenceQuerySchema,
  TemplateListAnswerSchema,
  TemplatePreviewAnswerSchema,
  TemplateSaveDocumentedSchema,
  TemplateSaveSchema,
  TemplateSchema,
} from '../settings-templates';
import { body, defineCall, jsonAnswer, query } from './call';

// Settings templates (issue 32, decision 295): one per furniture kind, written by
// administrators; applied by anyone with storeSettings to the stores of a group they see (a
// manager's own stores of it; the others are left as they are). A group without a store the
// caller sees "does not exist" (404).

const storeSettings = { kind: 'user', permission: 'storeSettings' } as const;
const templateAdmin = { kind: 'user', permission: 'settingsTemplates' } as const;
const groupNotFound = { status: 404, error: 'not_found', when: 'template_id is not a template, or the store group has no store the caller sees' } as const;

export const listSettingsTemplates = defineCall('listSettingsTemplates', 'GET /on-reco/v1/settings_template', {
  summary: 'The settings templates, one per furniture kind (icon_kind)',
  access: storeSettings,
  answer: jsonAnswer(TemplateListAnswerSchema, 'By furniture kind.'),
});

export const saveSettingsTemplate = defineCall('saveSettingsTemplate', 'POST /on-reco/v1/settings_template', {
  summary: 'Create (no template_id) or update a settings template',
  description: 'The fields follow the sensor save\'s rules (limits, guard and snooze times, time constant, defrost ranges). A kind that has a template already is 400 at icon_kind. Changing a template changes no sensor until it is applied. Audited.',
  access: templateAdmin,
  input: body(TemplateSaveSchema, { documented: TemplateSaveDocumentedSchema }),
  answer: jsonAnswer(TemplateSchema, '201 when created, 200 when updated.', [201, 200]),
  errors: [{ status: 404, error: 'not_found', when: 'template_id is not a template' }],
});

export const deleteSettingsTemplate = defineCall('deleteSettingsTemplate', 'DELETE /on-reco/v1/settings_template', {
  summary: 'Delete a settings template (the sensors keep their settings)',
  description: 'Audited.',
  access: templateAdmin,
  input: body(TemplateDeleteSchema),
  answer: jsonAnswer(z.strictObject({ template_id: z.number().int() }), 'The deleted template.'),
  errors: [{ status: 404, error: 'not_found', when: 'template_id is not a template' }],
});

export const previewSettingsTemplate = defineCall('previewSettingsTemplate', 'GET /on-reco/v1/settings_template/preview', {
  summary: 'What applying a template to a store group would change: stores, sensors, old → new per field',
  description: 'The sensors of the template\'s kind in the group\'s stores the caller sees, not removed, whose settings differ from the template. Nothing is written.',
  access: storeSettings,
  input: query(TemplateApplySchema),
  answer: jsonAnswer(TemplatePreviewAnswerSchema, 'The counts, and the first sensors by store and sensor.'),
  errors: [groupNotFound],
  references: { storegroup_id: 'storegroup' },
});

export const applySettingsTemplate = defineCall('applySettingsTemplate', 'POST /on-reco/v1/settings_template/apply', {
  summary: 'Apply a template to a store group, in one audited step',
  description: 'Writes the sensors the preview lists, in one transaction with their settings history (in force from now, so graphs and reports keep the limits that were in force before) and one audit row. The next reading is judged with the new settings.',
  access: storeSettings,
  input: body(TemplateApplySchema),
  answer: jsonAnswer(TemplateApplyAnswerSchema, 'How many stores and sensors changed.'),
  errors: [groupNotFound],
  references: { storegroup_id: 'storegroup' },
});

export const listSettingsDivergences = defineCall('listSettingsDivergences', 'GET /on-reco/v1/settings_template/divergence', {
  summary: 'The sensors of a store group whose settings differ from their furniture kind\'s template',
  access: storeSettings,
  input: query(TemplateDivergenceQuerySchema),
  answer: jsonAnswer(TemplateDivergenceAnswerSchema, 'The count, and the first sensors by store and sensor.'),
  errors: [{ status: 404, error: 'not_found', when: 'the store group has no store the caller sees' }],
  references: { storegroup_id: 'storegroup' },
});
