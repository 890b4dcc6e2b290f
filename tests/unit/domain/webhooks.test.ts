import { describe, expect, it } from 'vitest';
import { isAllowedWebhookUrl, nextWebhookAttempt, renderWebhookBody, WEBHOOK_MAX_ATTEMPTS, type WebhookAlertFacts, WebhookEndpointCreateSchema } from '~/domain/webhooks';

const T = new Date('2026-11-28T03:15:00Z');
const facts: WebhookAlertFacts = {
  event: 'alert.opened',
  idempotencyKey: '6f1c0a52-7d0e-4a8e-9b3f-0d1e2f3a4b5c',
  alertHistoryId: 12,
  storeId: 'S001',
  storeName: '芝公園店',
  equipmentId: 3,
  equipmentName: '冷凍ケース1',
  code: 'OE00000001',
  value: 14.2,
  simulatedValue: 12.8,
  openedAt: T,
  recoveredAt: null,
  stepNo: 1,
  acknowledgeUrl: 'https://console.example.com/stores/S001/warning_histories?alert_history_id=12',
};

describe('webhook endpoints', () => {
  it('takes https anywhere and plain http only to this machine, never with credentials', () => {
    expect(isAllowedWebhookUrl('https://hooks.slack.com/services/T/B/X')).toBe(true);
    expect(isAllowedWebhookUrl('http://localhost:8080/hook')).toBe(true);
    expect(isAllowedWebhookUrl('http://127.0.0.1:9/hook')).toBe(true);
    expect(isAllowedWebhookUrl('http://hooks.example.com/hook')).toBe(false);
    expect(isAllowedWebhookUrl('https://user:pw@hooks.example.com/')).toBe(false);
    expect(isAllowedWebhookUrl('ftp://hooks.example.com/')).toBe(false);
    expect(WebhookEndpointCreateSchema.safeParse({ endpoint_name: '本部', url: 'https://x.example.com', format: 'fax' }).success).toBe(false);
  });

  it('backs off 30 s, 2 min, 10 min, 1 h … and stops after the last try', () => {
    const waits = Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, index) => (nextWebhookAttempt(index + 1, T)!.getTime() - T.getTime()) / 1000);
    expect(waits.slice(0, 4)).toEqual([30, 120, 600, 3600]);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect(nextWebhookAttempt(WEBHOOK_MAX_ATTEMPTS, T)).toBeNull();
  });
});

describe('webhook bodies', () => {
  it('renders our payload with the alert code\'s label, Japan-time dates and the step from 1', () => {
    const body = JSON.parse(renderWebhookBody('json', facts));
    expect(body).toMatchObject({ event: 'alert.opened', idempotency_key: facts.idempotencyKey, step: 2, alert: { code: 'OE00000001', label: '温度異常（上限超過）', opened_at: '20261128121500', value: 14.2, simulated_value: 12.8 } });
  });

  it('renders the chat tools\' shapes: Slack text and blocks, a Teams Adaptive Card, a LINE WORKS title and text', () => {
    const slack = JSON.parse(renderWebhookBody('slack', facts));
    expect(slack.text).toContain('【警報発生】芝公園店');
    expect(slack.blocks.at(-1).elements[0].url).toBe(facts.acknowledgeUrl);
    const teams = JSON.parse(renderWebhookBody('teams', facts));
    expect(teams.attachments[0].content).toMatchObject({ type: 'AdaptiveCard', actions: [{ type: 'Action.OpenUrl', url: facts.acknowledgeUrl }] });
    const lineworks = JSON.parse(renderWebhookBody('lineworks', { ...facts, event: 'alert.recovered', recoveredAt: new Date(T.getTime() + 12 * 60_000), stepNo: null }));
    expect(lineworks.title).toContain('【警報復旧】');
    expect(lineworks.body.text).toContain('復旧日時: 2026/11/28 12:27');
    expect(lineworks.body.text).not.toContain(facts.acknowledgeUrl);
  });
});
