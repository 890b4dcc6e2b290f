import type { Db } from '~/db/db.server';
import { TEMPLATE_MESSAGES, type TemplateSave } from '~/domain/settings-templates';
import { audit } from '~/models/audit.server';
import { applyTemplate, deleteTemplate, getTemplate, insertTemplate, storegroupSeenBy, templateOfKind, updateTemplate } from '~/models/settings-templates.server';
import type { Viewer } from '~/models/users.server';

// Settings templates (issue 32, decision 295): each write in one transaction with its audit
// row. Applying writes the sensors, their settings history and one audit row for the whole group.

export type TemplateWriteFailure = { reason: 'not_found'; description: string } | { reason: 'invalid'; fields: Record<string, string> };
export type TemplateWriteResult<T> = ({ ok: true } & T) | ({ ok: false } & TemplateWriteFailure);

const settingsOf = (template: TemplateSave) => ({
  template_name: template.template_name,
  icon_kind: template.icon_kind,
  lower_limit: template.lower_limit,
  upper_limit: template.upper_limit,
  guard_time: template.guard_time,
  snoozing_time: template.snoozing_time,
  time_constant: template.time_constant,
  def_time: template.def_time,
});

/** Creates (no template_id) or updates a template; one template per furniture kind. */
export async function saveTemplate(db: Db, viewer: Viewer, input: TemplateSave, now: Date): Promise<TemplateWriteResult<{ templateId: number; created: boolean }>> {
  return db.transaction().execute(async (trx) => {
    // The kind's unique key decides a race; this reads the common case as a field message.
    const holder = await templateOfKind(trx, input.icon_kind);
    if (holder !== null && holder !== input.template_id) return { ok: false, reason: 'invalid', fields: { icon_kind: TEMPLATE_MESSAGES.kindTaken } } as const;
    if (input.template_id === null) {
      const templateId = await insertTemplate(trx, input, viewer.userId, now);
      await audit(trx, { at: now, userId: viewer.userId, action: 'settings_template.create', targetType: 'settings_template', targetId: templateId, details: { before: null, after: settingsOf(input) } });
      return { ok: true, templateId, created: true } as const;
    }
    const before = await updateTemplate(trx, { ...input, template_id: input.template_id }, viewer.userId, now);
    if (!before) return { ok: false, reason: 'not_found', description: `No settings template ${input.template_id}.` } as const;
    await audit(trx, { at: now, userId: viewer.userId, action: 'settings_template.update', targetType: 'settings_template', targetId: input.template_id, details: { before: settingsOf(before), after: settingsOf(input) } });
    return { ok: true, templateId: input.template_id, created: false } as const;
  });
}

/** Deletes a template; the sensors keep the settings it gave them. */
export async function removeTemplate(db: Db, viewer: Viewer, templateId: number, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const before = await deleteTemplate(trx, templateId);
    if (!before) return false;
    await audit(trx, { at: now, userId: viewer.userId, action: 'settings_template.delete', targetType: 'settings_template', targetId: templateId, details: { before: settingsOf(before), after: null } });
    return true;
  });
}

/**
 * Applies the template to the sensors of its kind in the group's stores the viewer sees, in one
 * transaction: sensors, settings history from `now`, and one audit row naming the stores changed.
 */
export async function applyTemplateToGroup(
  db: Db,
  viewer: Viewer,
  templateId: number,
  storegroupId: string,
  now: Date,
): Promise<TemplateWriteResult<{ sensors: number; stores: number }>> {
  return db.transaction().execute(async (trx) => {
    const template = await getTemplate(trx, templateId);
    if (!template) return { ok: false, reason: 'not_found', description: `No settings template ${templateId}.` } as const;
    if (!(await storegroupSeenBy(trx, viewer, storegroupId))) return { ok: false, reason: 'not_found', description: `Store group ${storegroupId} was not found.` } as const;
    const applied = await applyTemplate(trx, viewer, templateId, storegroupId, now);
    await audit(trx, {
      at: now,
      userId: viewer.userId,
      action: 'settings_template.apply',
      targetType: 'settings_template',
      targetId: templateId,
      details: { storegroup_id: storegroupId, after: settingsOf(template), sensor_count: applied.sensors, store_count: applied.stores, store_ids: applied.storeIds },
    });
    return { ok: true, sensors: applied.sensors, stores: applied.stores } as const;
  });
}
