import { describe, expect, it } from 'vitest';
import { rememberedForRequest, runWithRequestContext } from '~/http/server/request-context.server';

describe('rememberedForRequest', () => {
  it('loads a key once within a read request (the layout and the page ask at once), each key on its own', async () => {
    let loads = 0;
    const load = (answer: string) => async () => {
      loads += 1;
      return answer;
    };
    const answers = await runWithRequestContext({ remembered: new Map() }, () =>
      Promise.all([rememberedForRequest('viewer:a', load('A')), rememberedForRequest('viewer:a', load('A again')), rememberedForRequest('viewer:b', load('B'))]),
    );
    expect(answers).toEqual(['A', 'A', 'B']);
    expect(loads).toBe(2);
  });

  it('loads every time in a request that may write (no memory) and outside a request', async () => {
    let loads = 0;
    const load = async () => (loads += 1);
    await runWithRequestContext({}, async () => {
      await rememberedForRequest('viewer:a', load);
      await rememberedForRequest('viewer:a', load);
    });
    await rememberedForRequest('viewer:a', load);
    expect(loads).toBe(3);
  });
});
