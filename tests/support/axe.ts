import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core in the page under test: the tests inject the library the package ships and run it
// against WCAG 2.0-2.2 A and AA, returning what a user would be blocked or badly hindered by
// (serious and critical violations); moderate and minor ones are left to review.

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** CSS selectors of the failing elements (at most 5) and how many there are. */
  targets: string[];
  count: number;
}

/** The serious and critical violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP (script-src with a nonce) does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? 'minor',
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      count: violation.nodes.length,
    }));
  }, TAGS);
  return violations.filter((violation) => BLOCKING.has(violation.impact));
}

/** One line per violation, for a failure message or the printed figures. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations.map((violation) => `${violation.impact} ${violation.id} (${violation.count}): ${violation.help} at ${violation.targets.join(', ')}`).join('\n');
}
