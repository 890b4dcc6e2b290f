// The English texts (mails and messages of users whose language is US). Same keys as ja.ts:
// the type makes a missing or extra key a compile error.
import type { PasswordMailFacts, Texts } from './ja';

export const en: Texts = {
  alerts: {
    OE00000001: 'Upper temperature limit exceeded',
    OE00000002: 'Lower temperature limit exceeded',
    OE00000003: 'Battery low',
    OE00000004: 'Sensor error: temperature cannot be taken',
    OE00000005: 'No communication for a long time',
    OE00000006: 'Gateway buffer nearly full (readings at risk)',
    OE00000007: 'Gateway buffer overflowed: readings lost',
  },
  confirmedAlerts: {
    OE00000001: 'Temperature abnormal (above upper limit)',
    OE00000002: 'Temperature abnormal (below lower limit)',
  },
  gatewayDown: 'No communication with the gateway for a long time',
  noAlert: 'No alerts at the moment',
  simulatedValue: (simulated: string, measured: string) => `simulated product ${simulated} (measured ${measured})`,

  alertMail: {
    kinds: { open: 'Alert', renotify: 'Alert continues (reminder)', recover: 'Recovered' },
    subjectPrefix: '[On-Reco]',
    store: 'Store:       ',
    sensor: 'Sensor:      ',
    temperature: 'Temperature: ',
    limits: 'Limits:      ',
    time: (at: string) => `Time:        ${at} (Japan time)`,
    graph: 'Graph: ',
    footer: 'This mail was sent by On-Reco automatically.',
    lost: (count: number) => `Readings lost: ${count}`,
    opened: (at: string) => `Opened:      ${at} (Japan time)`,
    lasted: (duration: string) => `Lasted:      ${duration}`,
    duration: (hours: number, minutes: number) => (hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`),
  },

  temporaryPasswordMail: (f: PasswordMailFacts) => ({
    subject: '[On-Reco] Temporary password',
    text: `${f.userName},\n\nA temporary password was issued for your On-Reco account (${f.loginId}).\n\n  Temporary password: ${f.password}\n  Valid until: ${f.validUntil} (Japan time)\n\nSign in with it and change your password.\nIf you did not ask for it, ignore this mail: your password is unchanged.\n`,
  }),

  storeStatus: { 0: 'Not connected', 1: 'Stopped', 2: 'Operating', 3: 'Alerting' },
  workingState: { null: 'No working state', 0: 'Waiting for first communication', 1: 'Operating', 2: 'Removed' },

  buttons: {
    close: 'Close',
    cancel: 'Cancel',
    save: 'Save',
    ok: 'OK',
  },
  discardDialog: {
    title: 'Discard your changes?',
    message: 'The data being edited will not be saved.',
    keepEditing: 'Keep editing',
    discard: 'Discard',
  },
  storeCreated: {
    title: 'Store created',
    message: (storeName: string) => `${storeName} was created. Before it records temperatures:`,
    steps: 'Next steps',
    gateway: 'Install the gateway and register it to the store with the PIN code',
    gatewayLink: 'Issue the PIN code on the store management page',
    sensors: 'Register the sensors',
    sensorsLink: 'Register them on the settings page\'s sensor tab',
    byStaff: 'Done by an administrator or maintenance staff.',
    toStore: 'To the temperatures',
  },
  listTotal: (total: number) => `${total} in all`,
  listRange: (first: number, last: number) => `showing ${first} to ${last}`,
  staleReading: { label: (age: string) => `value from ${age}`, hint: 'No reading since the no-communication threshold: not the current temperature.' },
  skipToContent: 'Skip to the page content',
  pagination: { label: 'Pages', above: 'Pages (above the list)', below: 'Pages (below the list)' },
  noSearchResults: 'No results',

  liveData: {
    staleSince: (time: string) => `Not updated since ${time}`,
    retrying: 'The server cannot be reached. Retrying automatically.',
  },
  pageError: {
    title: 'An error occurred',
    retryLater: 'Please try again in a moment.',
    forbidden: 'You are not allowed to see this page',
    forbiddenHint: 'Sign in as a user who may see it.',
    retry: 'Reload',
  },
  mailChangedMail: (f: { userName: string; loginId: string; newAddress: string; changedBy: string; changedAt: string }) => ({
    subject: '[On-Reco] Your mail address was changed',
    text: `${f.userName},\n\nThe mail address of your On-Reco account (${f.loginId}) was changed by ${f.changedBy}.\n\n  New address: ${f.newAddress}\n  Changed at: ${f.changedAt} (Japan time)\n\nIf you did not expect this, tell your administrator at once.\n`,
  }),
  welcomeMail: (f: PasswordMailFacts & { loginUrl: string }) => ({
    subject: '[On-Reco] Your account',
    text: `${f.userName},\n\nAn On-Reco account was created for you.\n\n  Login ID: ${f.loginId}\n  Temporary password: ${f.password}\n  Valid until: ${f.validUntil} (Japan time)\n\nSign in at ${f.loginUrl} with it and change your password.\nIf it has expired, ask for a new one with "Forgot your password?" on the sign-in page.\n`,
  }),
};
