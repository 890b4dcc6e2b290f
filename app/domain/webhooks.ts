import { z } from 'zod';
import { type AlertCode, alertText, storeAlertText } from './alert-codes';
import { alertValueText } from './alert-value';
import { bodyNumber, dbText, INT4_MAX, nameText } from './input-schemas';
import { formatDateTime, toCompactDateTime } from './japan-time';

// Webhook endpoints, a channel of escalation steps (issue 28 part 3, docs/decisions/285-webhooks.md,
// docs/webhooks.md): their formats, the delivery states and retry schedule, the inputs, and the
// bodies each format sends. Pure: the signing and the sending are in services/webhooks.server.ts.

/** The message shapes an endpoint receives: ours, and three chat tools' incoming webhooks. */
export const WEBHOOK_FORMATS = {
  json: { label: 'JSON (On-Reco形式)' },
  slack: { label: 'Slack' },
  teams: { label: 'Microsoft Teams' },
  lineworks: { label: 'LINE WORKS' },
} as const;
export type WebhookFormat = keyof typeof WEBHOOK_FORMATS;
export const WEBHOOK_FORMAT_CODES = Object.keys(WEBHOOK_FORMATS) as [WebhookFormat, ...WebhookFormat[]];
export const isWebhookFormat = (value: string): value is WebhookFormat => Object.hasOwn(WEBHOOK_FORMATS, value);
export const webhookFormatLabel = (format: string): string => (isWebhookFormat(format) ? WEBHOOK_FORMATS[format].label : format);

/** What a delivery tells: an alert opened (a step fired) or it recovered (to endpoints that were told). */
export const WEBHOOK_EVENTS = { open: 'alert.opened', recover: 'alert.recovered' } as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[keyof typeof WEBHOOK_EVENTS];

export const WEBHOOK_DELIVERY_STATES = {
  pending: { label: '送信待ち' },
  delivered: { label: '送信済み' },
  dead: { label: '送信失敗（再送停止）' },
} as const;
export type WebhookDeliveryState = keyof typeof WEBHOOK_DELIVERY_STATES;
export const WEBHOOK_DELIVERY_STATE_CODES = Object.keys(WEBHOOK_DELIVERY_STATES) as [WebhookDeliveryState, ...WebhookDeliveryState[]];
export const webhookDeliveryStateLabel = (state: string): string => (Object.hasOwn(WEBHOOK_DELIVERY_STATES, state) ? WEBHOOK_DELIVERY_STATES[state as WebhookDeliveryState].label : state);

/**
 * The wait after each failed try: 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, then 12 h twice. A delivery
 * fails for good (dead letter) after WEBHOOK_MAX_ATTEMPTS tries, about 34 hours after the first.
 */
export const WEBHOOK_RETRY_DELAYS_S = [30, 120, 600, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 12 * 3600] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_S.length + 1;

/** The next try's time after `attempts` failed tries, or null: no more tries (dead letter). */
export function nextWebhookAttempt(attempts: number, now: Date): Date | null {
  if (attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const delay = WEBHOOK_RETRY_DELAYS_S[Math.max(0, attempts - 1)];
  return new Date(now.getTime() + delay * 1000);
}

/** How old a signed timestamp a receiver should accept (docs/webhooks.md). */
export const WEBHOOK_REPLAY_WINDOW_S = 5 * 60;
export const WEBHOOK_HEADERS = { timestamp: 'X-OnReco-Timestamp', signature: 'X-OnReco-Signature', idempotencyKey: 'Idempotency-Key', event: 'X-OnReco-Event' } as const;
/** The signed text: the timestamp (Unix seconds), a dot, and the body's bytes. */
export const webhookSignedText = (timestamp: number, body: string): string => `${timestamp}.${body}`;

export const WEBHOOK_MESSAGES = {
  urlInvalid: 'URLを正しく入力してください。',
  urlNotHttps: 'URLは https:// で始めてください（http:// は localhost のみ）。',
  nameRequired: '名前を入力してください。',
  formatInvalid: '形式を選択してください。',
} as const;

/** The save's refusal of a URL that reaches this machine or a private network (decision 314). */
export const webhookPrivateTargetMessage = (address: string): string => `このURLは内部向けのアドレス（${address}）に届くため登録できません。`;

/** The console's Webhook送信先 screen: its texts in one place. */
export const WEBHOOK_SCREEN = {
  title: 'Webhook送信先',
  formTitle: '送信先の登録',
  name: '名前',
  url: 'URL',
  format: '形式',
  register: '登録',
  created: '送信先を登録しました。シークレットは今だけ表示されます。受信側の署名確認に設定してください。',
  secret: 'シークレット',
  deleted: '送信先を削除しました。',
  retried: '再送を予約しました。まもなく送信されます。',
  failed: '処理できませんでした。画面を更新してやり直してください。',
  listTitle: '登録済みの送信先',
  noEndpoints: '送信先は登録されていません。',
  createdAt: '登録日時',
  remove: '削除',
  removeConfirm: 'この送信先を削除しますか？未送信の送信も削除されます。',
  deadTitle: '送信失敗（再送停止）',
  noDead: '再送を停止した送信はありません。',
  deadNote: `再送を${WEBHOOK_RETRY_DELAYS_S.length + 1}回試みても届かなかった送信です。`,
  endpoint: '送信先',
  store: '店舗ID',
  alert: '警報',
  event: '種別',
  attempts: '試行回数',
  lastError: '最後の応答',
  queuedAt: '作成日時',
  retryNow: '今すぐ再送',
  events: { 'alert.opened': '発生', 'alert.recovered': '復旧' } as Record<string, string>,
} as const;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere; plain http only to this machine (tests, a local relay). */
export function isAllowedWebhookUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
}

const id = bodyNumber(z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').positive('must be an id').max(INT4_MAX));

/** POST /v1/webhook_endpoint and the console's form: a new endpoint (its secret is ours). */
export const WebhookEndpointCreateSchema = z.object({
  endpoint_name: nameText({ required_error: WEBHOOK_MESSAGES.nameRequired }).trim().min(1, WEBHOOK_MESSAGES.nameRequired).max(100),
  url: dbText({ required_error: WEBHOOK_MESSAGES.urlInvalid }).trim().max(500).url(WEBHOOK_MESSAGES.urlInvalid).refine(isAllowedWebhookUrl, WEBHOOK_MESSAGES.urlNotHttps),
  format: z.enum(WEBHOOK_FORMAT_CODES, { errorMap: () => ({ message: WEBHOOK_MESSAGES.formatInvalid }) }),
});
export type WebhookEndpointCreate = z.output<typeof WebhookEndpointCreateSchema>;

export const WebhookEndpointDeleteSchema = z.object({ endpoint_id: id });

/** GET /v1/webhook_delivery: the newest deliveries of a state (the dead letters by default). */
export const WebhookDeliveryListSchema = z.object({
  state: z.enum(WEBHOOK_DELIVERY_STATE_CODES).default('dead'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const WebhookDeliveryRetrySchema = z.object({ delivery_id: bodyNumber(z.coerce.number({ invalid_type_error: 'must be a number' }).int().positive().max(Number.MAX_SAFE_INTEGER)) });

export interface WebhookEndpoint {
  endpointId: number;
  endpointName: string;
  url: string;
  format: WebhookFormat;
  createdAt: Date;
}

export interface WebhookDelivery {
  deliveryId: number;
  endpointId: number;
  endpointName: string;
  storeId: string;
  alertHistoryId: number;
  event: WebhookEvent;
  stepNo: number | null;
  idempotencyKey: string;
  state: WebhookDeliveryState;
  attempts: number;
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** The screen's views: dates as Japan-time text. */
export type WebhookEndpointView = Omit<WebhookEndpoint, 'createdAt'> & { createdAt: string };
export type WebhookDeadLetterView = Pick<WebhookDelivery, 'deliveryId' | 'endpointName' | 'storeId' | 'alertHistoryId' | 'event' | 'attempts' | 'lastError'> & { createdAt: string };

// ---- the bodies ------------------------------------------------------------------------------

/** What a delivery says about its alert. */
export interface WebhookAlertFacts {
  event: WebhookEvent;
  idempotencyKey: string;
  alertHistoryId: number;
  storeId: string;
  storeName: string;
  equipmentId: number | null;
  equipmentName: string | null;
  code: AlertCode;
  /** The reading that opened it, and (temperature alerts) the simulated value the limits were checked against. */
  value: number | null;
  simulatedValue: number | null;
  openedAt: Date;
  recoveredAt: Date | null;
  /** The escalation step (0-based) that told this endpoint; null for a recovery. */
  stepNo: number | null;
  acknowledgeUrl: string;
}

/** The alert's text as mails and screens show it (the alert codes' owner module). */
export function webhookAlertLabel(facts: Pick<WebhookAlertFacts, 'code' | 'equipmentId'>): string {
  return facts.equipmentId === null ? storeAlertText(facts.code, 'JP') : alertText(facts.code, 'JP', 2);
}

/** Our JSON payload (docs/webhooks.md, OpenAPI's WebhookPayload). */
export function webhookJsonPayload(facts: WebhookAlertFacts) {
  return {
    event: facts.event,
    idempotency_key: facts.idempotencyKey,
    alert: {
      alert_history_id: facts.alertHistoryId,
      code: facts.code,
      label: webhookAlertLabel(facts),
      store: { store_id: facts.storeId, store_name: facts.storeName },
      sensor: facts.equipmentId === null ? null : { equipment_id: facts.equipmentId, equipment_name: facts.equipmentName },
      value: facts.value,
      simulated_value: facts.simulatedValue,
      opened_at: toCompactDateTime(facts.openedAt),
      recovered_at: facts.recoveredAt === null ? null : toCompactDateTime(facts.recoveredAt),
    },
    step: facts.stepNo === null ? null : facts.stepNo + 1,
    acknowledge_url: facts.acknowledgeUrl,
  };
}

export type WebhookJsonPayload = ReturnType<typeof webhookJsonPayload>;

/** The chat message's lines, in Japanese (the chain's language on its chat tools). */
function messageLines(facts: WebhookAlertFacts): { title: string; lines: string[] } {
  const label = webhookAlertLabel(facts);
  const title = facts.event === WEBHOOK_EVENTS.open ? `【警報発生】${facts.storeName} ${label}` : `【警報復旧】${facts.storeName} ${label}`;
  const lines = [
    `店舗: ${facts.storeName}`,
    ...(facts.equipmentName === null ? [] : [`センサ: ${facts.equipmentName}`]),
    `警報: ${label}`,
    ...(facts.value === null && facts.simulatedValue === null ? [] : [`温度: ${alertValueText({ measured: facts.value, simulated: facts.simulatedValue }, 'JP')}`]),
    `発生日時: ${formatDateTime(facts.openedAt)}`,
    ...(facts.recoveredAt === null ? [] : [`復旧日時: ${formatDateTime(facts.recoveredAt)}`]),
    ...(facts.stepNo === null ? [] : [`エスカレーション: 第${facts.stepNo + 1}段階`]),
  ];
  return { title, lines };
}

const ACKNOWLEDGE_LABEL = '確認・改善措置を記録';

/** The request body for an endpoint of `format`, rendered once when the delivery is queued. */
export function renderWebhookBody(format: WebhookFormat, facts: WebhookAlertFacts): string {
  if (format === 'json') return JSON.stringify(webhookJsonPayload(facts));
  const { title, lines } = messageLines(facts);
  const open = facts.event === WEBHOOK_EVENTS.open;
  if (format === 'slack') {
    // Slack incoming webhooks (and Mattermost, Rocket.Chat): text, plus Block Kit for layout.
    const text = `${title}\n${lines.join('\n')}`;
    return JSON.stringify({
      text,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
        { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
        ...(open ? [{ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: ACKNOWLEDGE_LABEL }, url: facts.acknowledgeUrl }] }] : []),
      ],
    });
  }
  if (format === 'teams') {
    // Teams' Workflows "post to a channel when a webhook request is received": an Adaptive Card in a message.
    return JSON.stringify({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: title, weight: 'Bolder', size: 'Medium', wrap: true, color: open ? 'Attention' : 'Good' },
              { type: 'TextBlock', text: lines.join('\n\n'), wrap: true },
            ],
            actions: open ? [{ type: 'Action.OpenUrl', title: ACKNOWLEDGE_LABEL, url: facts.acknowledgeUrl }] : [],
          },
        },
      ],
    });
  }
  // LINE WORKS' Incoming Webhook app: a title and a text body.
  return JSON.stringify({ title, body: { text: [...lines, ...(open ? [`${ACKNOWLEDGE_LABEL}: ${facts.acknowledgeUrl}`] : [])].join('\n') } });
}
