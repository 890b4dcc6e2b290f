import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import type { AlertCode } from '~/domain/alert-codes';
import { type EscalationChoices, type EscalationPolicy, type EscalationPolicySave, type EscalationStep, parseEscalationSteps } from '~/domain/escalation';
import { AUTHORITY } from '~/domain/roles';
import { type QuietHours, quietHoursOf } from '~/domain/quiet-hours';
import { seesStore } from './stores.server';
import { type AlertRecipient, toAlertRecipient } from './users.server';

// Escalation policies, the steps fired for each alert, and who a step reaches
// (docs/decisions/236-escalation.md).

type PolicyRow = { policy_id: number; policy_name: string; storegroup_id: string | null; store_id: string | null; alert_codes: string[]; steps: unknown };

const toPolicy = (row: PolicyRow): EscalationPolicy => ({
  policyId: row.policy_id,
  policyName: row.policy_name,
  storegroupId: row.storegroup_id,
  storeId: row.store_id,
  alertCodes: row.alert_codes as AlertCode[],
  steps: parseEscalationSteps(row.steps),
});

const POLICY_COLUMNS = ['p.policy_id', 'p.policy_name', 'p.storegroup_id', 'p.store_id', 'p.alert_codes', 'p.steps'] as const;

/** Every policy, by scope (administrators' list). */
export async function listEscalationPolicies(db: Db): Promise<EscalationPolicy[]> {
  const rows = await db.selectFrom('escalation_policies as p').select(POLICY_COLUMNS).orderBy('p.storegroup_id').orderBy('p.store_id').orderBy('p.policy_id').execute();
  return rows.map(toPolicy);
}

/** The policies that may govern a store's alerts: its own overrides and its store group's. */
export async function listStorePolicies(db: Db, storeId: string): Promise<EscalationPolicy[]> {
  const rows = await db
    .selectFrom('escalation_policies as p')
    .select(POLICY_COLUMNS)
    .where((eb) => eb.or([eb('p.store_id', '=', storeId), eb('p.storegroup_id', '=', eb.selectFrom('stores').select('storegroup_id').where('stores.store_id', '=', storeId))]))
    .orderBy('p.policy_id')
    .execute();
  return rows.map(toPolicy);
}

/** Whether the scope a policy names exists (a store group, or a store). */
export async function policyScopeExists(db: Db, scope: { storegroupId: string | null; storeId: string | null }): Promise<boolean> {
  const row = scope.storeId !== null
    ? await db.selectFrom('stores').select('store_id as id').where('store_id', '=', scope.storeId).executeTakeFirst()
    : await db.selectFrom('storegroups').select('storegroup_id as id').where('storegroup_id', '=', scope.storegroupId ?? '').executeTakeFirst();
  return row !== undefined;
}

export async function getEscalationPolicy(db: Db, policyId: number): Promise<EscalationPolicy | null> {
  const row = await db.selectFrom('escalation_policies as p').select(POLICY_COLUMNS).where('p.policy_id', '=', policyId).executeTakeFirst();
  return row ? toPolicy(row) : null;
}

/** Creates (policy_id null) or replaces a policy; null when the policy to replace does not exist. */
export async function saveEscalationPolicy(db: Db, input: EscalationPolicySave, now: Date): Promise<number | null> {
  const values = { policy_name: input.policy_name, storegroup_id: input.storegroup_id, store_id: input.store_id, alert_codes: input.alert_codes, steps: JSON.stringify(input.steps), updated_at: now };
  if (input.policy_id === null) {
    const row = await db.insertInto('escalation_policies').values(values).returning('policy_id').executeTakeFirstOrThrow();
    return row.policy_id;
  }
  const row = await db.updateTable('escalation_policies').set(values).where('policy_id', '=', input.policy_id).returning('policy_id').executeTakeFirst();
  return row?.policy_id ?? null;
}

export async function deleteEscalationPolicy(db: Db, policyId: number): Promise<boolean> {
  const result = await db.deleteFrom('escalation_policies').where('policy_id', '=', policyId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---- the worker's side ---------------------------------------------------------------------

export interface EscalationCandidate {
  storeId: string;
  storeName: string;
  alertHistoryId: number;
  equipmentId: number | null;
  equipmentName: string | null;
  code: AlertCode;
  startedAt: Date;
  temperature: number | null;
  simulatedTemperature: number | null;
  lowerLimit: number | null;
  upperLimit: number | null;
  /** Step numbers already fired for this alert. */
  fired: number[];
}

/**
 * Open, unacknowledged alerts of stores some policy covers (its own or its store group's), with
 * the steps fired so far: the few rows the escalation job looks at, whatever the chain's size.
 */
export async function listEscalationCandidates(db: Db, limit = 5000): Promise<EscalationCandidate[]> {
  const rows = await db
    .selectFrom('alert_history as h')
    .innerJoin('stores as s', 's.store_id', 'h.store_id')
    .leftJoin('sensors as e', (join) => join.onRef('e.store_id', '=', 'h.store_id').onRef('e.equipment_id', '=', 'h.equipment_id'))
    .select([
      'h.store_id as storeId',
      's.store_name as storeName',
      'h.alert_history_id as alertHistoryId',
      'h.equipment_id as equipmentId',
      'e.equipment_name as equipmentName',
      'h.alert_id as code',
      'h.started_at as startedAt',
      'h.temperature',
      'h.simulated_temperature as simulatedTemperature',
      'h.lower_limit as lowerLimit',
      'h.upper_limit as upperLimit',
      (eb) => eb.selectFrom('alert_escalations as x').select(sql<number[]>`coalesce(array_agg(x.step_no), '{}')`.as('fired')).whereRef('x.store_id', '=', 'h.store_id').whereRef('x.alert_history_id', '=', 'h.alert_history_id').as('fired'),
    ])
    .where('h.recovered_at', 'is', null)
    .where('h.acknowledged_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('escalation_policies as p')
          .select(sql`1`.as('one'))
          .where((p) => p.or([p('p.store_id', '=', p.ref('h.store_id')), p('p.storegroup_id', '=', p.ref('s.storegroup_id'))]))
          .where(sql<boolean>`h.alert_id = any(p.alert_codes)`),
      ),
    )
    .orderBy('h.started_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    alertHistoryId: Number(row.alertHistoryId),
    code: row.code as AlertCode,
    lowerLimit: row.lowerLimit === null ? null : Number(row.lowerLimit),
    upperLimit: row.upperLimit === null ? null : Number(row.upperLimit),
    fired: row.fired ?? [],
  }));
}

/** The alert's row locked for a step (or an acknowledgement): null once it recovered or was acknowledged. */
export async function lockUnacknowledgedAlert(trx: Db, storeId: string, alertHistoryId: number): Promise<{ alertHistoryId: number } | null> {
  const row = await trx
    .selectFrom('alert_history')
    .select('alert_history_id')
    .where('store_id', '=', storeId)
    .where('alert_history_id', '=', alertHistoryId)
    .where('recovered_at', 'is', null)
    .where('acknowledged_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row ? { alertHistoryId: Number(row.alert_history_id) } : null;
}

/** Records a fired step; false when it had fired already (another worker, a retried run). */
export async function recordFiredStep(trx: Db, step: { storeId: string; alertHistoryId: number; stepNo: number; userIds: number[]; at: Date }): Promise<boolean> {
  const row = await trx
    .insertInto('alert_escalations')
    .values({ store_id: step.storeId, alert_history_id: step.alertHistoryId, step_no: step.stepNo, fired_at: step.at, user_ids: step.userIds })
    .onConflict((oc) => oc.doNothing())
    .returning('step_no')
    .executeTakeFirst();
  return row !== undefined;
}

const recipientColumns = ['users.user_id', 'users.language', 'users.alert_filter', 'users.mailaddress1', 'users.mailaddress2', 'users.mailaddress3'] as const;

const toRecipients = (rows: Parameters<typeof toAlertRecipient>[0][]) => rows.map(toAlertRecipient);

/** Someone a step reaches, with their quiet hours (decision 315). */
export type StepRecipient = AlertRecipient & { quietHours: QuietHours | null };

/**
 * Who a step reaches: its users, the members of its user groups and, with store_staff, the users
 * of store-user groups linked to the store; only valid users who may see the store (a step never
 * shows a store to someone outside it).
 */
export async function stepRecipients(db: Db, storeId: string, step: EscalationStep): Promise<StepRecipient[]> {
  const rows = await db
    .selectFrom('users')
    .select([...recipientColumns, 'users.quiet_start_minute', 'users.quiet_end_minute'])
    .where('users.valid_flg', '=', 1)
    .where(seesStore(storeId))
    .where((eb) => {
      const who = [];
      if (step.user_ids.length > 0) who.push(eb('users.user_id', 'in', step.user_ids));
      if (step.usergroup_ids.length > 0) who.push(eb('users.user_id', 'in', eb.selectFrom('user_usergroups').select('user_id').where('usergroup_id', 'in', step.usergroup_ids)));
      if (step.store_staff) {
        who.push(
          eb(
            'users.user_id',
            'in',
            eb
              .selectFrom('user_usergroups as uu')
              .innerJoin('usergroups as g', 'g.usergroup_id', 'uu.usergroup_id')
              .innerJoin('store_usergroups as su', 'su.usergroup_id', 'uu.usergroup_id')
              .select('uu.user_id')
              .where('su.store_id', '=', storeId)
              .where('g.usergroup_authority', '=', AUTHORITY.storeUser),
          ),
        );
      }
      return who.length > 0 ? eb.or(who) : sql<boolean>`false`;
    })
    .orderBy('users.user_id')
    .execute();
  return rows.map((row) => ({ ...toAlertRecipient(row), quietHours: quietHoursOf(row.quiet_start_minute, row.quiet_end_minute) }));
}

/** Everyone some fired step told about each of the given alerts (recovery and re-notification go to them). */
export async function toldRecipients(db: Db, storeId: string, alertHistoryIds: readonly number[]): Promise<Map<number, AlertRecipient[]>> {
  if (alertHistoryIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('alert_escalations as x')
    .innerJoin('users', (join) => join.on(sql<boolean>`users.user_id = any(x.user_ids)`))
    .select(['x.alert_history_id', ...recipientColumns])
    .distinct()
    .where('x.store_id', '=', storeId)
    .where('x.alert_history_id', 'in', [...alertHistoryIds])
    .where('users.valid_flg', '=', 1)
    .orderBy('x.alert_history_id')
    .orderBy('users.user_id')
    .execute();
  const told = new Map<number, AlertRecipient[]>();
  for (const row of rows) {
    const id = Number(row.alert_history_id);
    told.set(id, [...(told.get(id) ?? []), ...toRecipients([row])]);
  }
  return told;
}

// ---- acknowledgement ------------------------------------------------------------------------

export interface AcknowledgeableAlert {
  alertHistoryId: number;
  equipmentId: number | null;
  code: AlertCode;
  recoveredAt: Date | null;
  acknowledgedAt: Date | null;
  acknowledgedByName: string | null;
  correctiveAction: string | null;
  acknowledgeNote: string | null;
}

/** One alert of a store, locked for its acknowledgement; null when the store has no such alert. */
export async function lockAlertForAcknowledgement(trx: Db, storeId: string, alertHistoryId: number): Promise<AcknowledgeableAlert | null> {
  const row = await trx
    .selectFrom('alert_history as h')
    .leftJoin('users as u', 'u.user_id', 'h.acknowledged_by')
    .select(['h.alert_history_id', 'h.equipment_id', 'h.alert_id', 'h.recovered_at', 'h.acknowledged_at', 'u.user_name', 'h.corrective_action', 'h.acknowledge_note'])
    .where('h.store_id', '=', storeId)
    .where('h.alert_history_id', '=', alertHistoryId)
    .forUpdate('h')
    .executeTakeFirst();
  if (!row) return null;
  return {
    alertHistoryId: Number(row.alert_history_id),
    equipmentId: row.equipment_id,
    code: row.alert_id as AlertCode,
    recoveredAt: row.recovered_at,
    acknowledgedAt: row.acknowledged_at,
    acknowledgedByName: row.user_name,
    correctiveAction: row.corrective_action,
    acknowledgeNote: row.acknowledge_note,
  };
}

export async function markAlertAcknowledged(trx: Db, storeId: string, alertHistoryId: number, ack: { at: Date; by: number; action: string; note: string | null }): Promise<void> {
  await trx
    .updateTable('alert_history')
    .set({ acknowledged_at: ack.at, acknowledged_by: ack.by, corrective_action: ack.action, acknowledge_note: ack.note })
    .where('store_id', '=', storeId)
    .where('alert_history_id', '=', alertHistoryId)
    .execute();
}

/** The corrective actions offered for a furniture kind: the kind's own, then those for every kind. */
export async function listCorrectiveActions(db: Db, equipmentkindId: number | null): Promise<{ actionId: number; equipmentkindId: number | null; label: string }[]> {
  return db
    .selectFrom('corrective_actions')
    .select(['action_id as actionId', 'equipmentkind_id as equipmentkindId', 'label'])
    .where((eb) => (equipmentkindId === null ? eb('equipmentkind_id', 'is', null) : eb.or([eb('equipmentkind_id', 'is', null), eb('equipmentkind_id', '=', equipmentkindId)])))
    .orderBy(sql`equipmentkind_id is null`)
    .orderBy('sort_no')
    .orderBy('action_id')
    .execute();
}

/** What the policy screen offers: store groups, stores, user groups, valid users and webhook endpoints, by name. */
export async function listEscalationChoices(db: Db): Promise<EscalationChoices> {
  const [storegroups, stores, usergroups, users, webhooks] = await Promise.all([
    db.selectFrom('storegroups').select(['storegroup_id as id', 'storegroup_name as name']).orderBy('storegroup_id').execute(),
    db.selectFrom('stores').select(['store_id as id', 'store_name as name']).orderBy('store_id').execute(),
    db.selectFrom('usergroups').select(['usergroup_id as id', 'usergroup_name as name']).orderBy('usergroup_id').execute(),
    db.selectFrom('users').select(['user_id as id', 'user_name as name']).where('valid_flg', '=', 1).orderBy('user_id').execute(),
    db.selectFrom('webhook_endpoints').select(['endpoint_id as id', 'endpoint_name as name']).orderBy('endpoint_id').execute(),
  ]);
  return { storegroups, stores, usergroups, users, webhooks };
}
