import { json } from '@remix-run/node';
import { deleteSettingsTemplate as deleteCall, listSettingsTemplates as listCall, saveSettingsTemplate as saveCall } from '~/domain/api/settings-templates';
import { apiError } from '~/http/access.server';
import { invalidRequest } from '~/http/api.server';
import { apiAction, apiActions, apiLoader } from '~/http/api-route.server';
import { getTemplate, listTemplates } from '~/models/settings-templates.server';
import { removeTemplate, saveTemplate } from '~/services/settings-templates.server';

// /v1/settings_template: the settings templates (issue 32, decision 295).

export const loader = apiLoader(listCall, async ({ db }) => ({ templates: await listTemplates(db) }));

export const action = apiActions(
  apiAction(saveCall, async ({ viewer, input, db, now }) => {
    const result = await saveTemplate(db, viewer, input, now);
    if (!result.ok) throw result.reason === 'invalid' ? invalidRequest(result.fields) : apiError(404, 'not_found', result.description);
    const template = await getTemplate(db, result.templateId);
    if (!template) throw apiError(404, 'not_found', `No settings template ${result.templateId}.`);
    return json(template, { status: result.created ? 201 : 200 });
  }),
  apiAction(deleteCall, async ({ viewer, input, db, now }) => {
    if (!(await removeTemplate(db, viewer, input.template_id, now))) throw apiError(404, 'not_found', `No settings template ${input.template_id}.`);
    return { template_id: input.template_id };
  }),
);
