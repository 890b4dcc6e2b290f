import { describe, expect, it } from 'vitest';
import { storeAlertText } from '~/domain/alert-codes';
import { AUDIT_ACTION_LABELS, auditActionLabel, auditTargetLabel } from '~/domain/audit';
import { markerScale, readableZoom, zoomScale } from '~/domain/diagram';
import { storeAlertMessages } from '~/domain/store-list';

// Issue 33 items 8 and 10: the rules behind the phone polish and the store-level alarm texts.

describe('store-level alarm texts', () => {
  it('words the gateway\'s buffer alarms as themselves and any other store-level row as its silence', () => {
    expect(storeAlertText('OE00000006', 'JP')).toBe('ゲートウェイのバッファ残量低下（データ欠損のおそれ）');
    expect(storeAlertText('OE00000007', 'JP')).toBe('ゲートウェイのバッファあふれ（データ欠損）');
    expect(storeAlertText('OE00000005', 'JP')).toBe('ゲートウェイと長時間通信がありません');
    expect(storeAlertText('OE00000006', 'US')).toBe('Gateway buffer nearly full (readings at risk)');
  });

  it('adds the store\'s open gateway alarms to the dashboard row after its sensors\' messages', () => {
    expect(storeAlertMessages([{ code: 'OE00000003', status: 2 }], 'JP', ['OE00000007', 'OE00000006'])).toEqual([
      '電池残量低下',
      'ゲートウェイのバッファ残量低下（データ欠損のおそれ）',
      'ゲートウェイのバッファあふれ（データ欠損）',
    ]);
    expect(storeAlertMessages([], 'JP')).toEqual([]);
  });
});

describe('audit labels', () => {
  it('labels every action in Japanese and leaves an unknown one as stored', () => {
    for (const [action, label] of Object.entries(AUDIT_ACTION_LABELS)) {
      expect(auditActionLabel(action)).toBe(label);
      expect(label).not.toMatch(/[a-z]+\.[a-z]/);
    }
    expect(new Set(Object.values(AUDIT_ACTION_LABELS)).size).toBe(Object.keys(AUDIT_ACTION_LABELS).length);
    expect(auditActionLabel('sensor.update')).toBe('センサ情報変更');
    expect(auditActionLabel('something.new')).toBe('something.new');
    expect(auditTargetLabel('sensor')).toBe('センサ');
    expect(auditTargetLabel('regular_report')).toBe('定期レポート設定');
  });
});

describe('the store diagram on a phone', () => {
  it('opens at the zoom where markers are drawn full size, fitted where they already are', () => {
    for (const width of [308, 350, 500, 700]) {
      const zoom = readableZoom(width);
      expect(markerScale(width * zoomScale(zoom)), String(width)).toBe(1);
      expect(markerScale(width * zoomScale(zoom - 1)), String(width)).toBeLessThan(1);
    }
    expect(readableZoom(1000)).toBe(0);
    expect(readableZoom(0)).toBe(0);
  });
});
