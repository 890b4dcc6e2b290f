import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ---- boundaries (docs/architecture.md, STYLE.md) ---------------------------------------------
// Who may import what, checked on the import strings: `~/x` is app/x, relative paths are matched
// by the folder names they pass through. One rule per file: flat config replaces a rule's options
// when a later block matches the same file, so each folder's block repeats the rules of all app/.

const rule = '@typescript-eslint/no-restricted-imports';
/** app/ and the gateway daemon share one module only: the wire protocol (the gateway stays deployable alone). */
const GATEWAY_BUT_PROTOCOL = { regex: '(^|/)gateway/(?!protocol$)', message: 'app/ may import only gateway/protocol.ts from the gateway.' };
const REMIX = { group: ['@remix-run/*'], message: 'Remix is the web layer: routes and app/http only.' };
const HTTP = { regex: '(^~/|/)http/', message: 'app/http is web plumbing: routes use it, models and services do not.' };
const SERVICES = { regex: '(^~/|/)services/', message: 'A model does not call services: services call models.' };
/** Routes hold the database handle (getDb, to pass to models and services), never the query builder. */
const DATABASE = {
  regex: '^kysely$|(^~/|/)db/(?!db\\.server$)',
  allowTypeImports: true,
  message: 'Routes do not query: they call a model or a service with getDb() (types are fine).',
};
const SERVER_MODULES = {
  regex: '\\.server(\\.[jt]sx?)?$|(^|/)\\.server/',
  message: 'Components run in the browser: no *.server modules (they take their types from app/domain).',
};
/** app/domain is pure: zod, app/domain itself (its files sit side by side) and gateway/protocol.ts. */
const DOMAIN_ONLY = { regex: '^(?!zod$|\\.\\.?/|~/domain/)', message: 'app/domain imports only zod and app/domain itself.' };
const DOMAIN_LEAVES = { regex: '^\\.\\./(?!(\\.\\./)*gateway/protocol$)', message: 'app/domain imports only zod and app/domain itself (and gateway/protocol.ts).' };
/** The same one folder deeper (app/domain/api/, app/domain/texts/): `../` is still app/domain. */
const DOMAIN_LEAVES_BELOW = { regex: '^\\.\\./\\.\\./(?!(\\.\\./)*gateway/protocol$)', message: DOMAIN_LEAVES.message };
const APP = { regex: '^~/|(^|/)app/', message: 'gateway/ is deployed on its own: it does not import app/.' };
/** The CLI talks to the server over /on-reco: it shares the API registry and the coded concepts, nothing of the server. */
const CLI_APP = { regex: '^~/|(^|/)app/(?!domain/)', message: 'cli/ imports only app/domain (the API registry and the coded concepts): it reaches the server over the API.' };
const CLI_GATEWAY = { regex: '(^|/)gateway/', message: 'cli/ does not import the gateway daemon.' };
/** The web's pages and jobs of the worker: neither a job nor a report renderer imports them. */
const WEB = { regex: '(^~/|/)(routes|components)/', message: 'Routes and components are the web layer: jobs and reports do not import them.' };
const JOBS = { regex: '(^~/|/)jobs/', message: 'app/jobs schedules the work: a report renderer does not import it (the job calls the renderer).' };

const restrict = (patterns) => ({ [rule]: ['error', { patterns }] });

const APP_RULES = [GATEWAY_BUT_PROTOCOL];
const ROUTE_RULES = [GATEWAY_BUT_PROTOCOL, DATABASE];
const MODEL_RULES = [GATEWAY_BUT_PROTOCOL, SERVICES, HTTP, REMIX];
const SERVICE_RULES = [GATEWAY_BUT_PROTOCOL, HTTP, REMIX];
const COMPONENT_RULES = [GATEWAY_BUT_PROTOCOL, SERVER_MODULES];
const JOB_RULES = [GATEWAY_BUT_PROTOCOL, HTTP, REMIX, WEB];
const REPORT_RULES = [GATEWAY_BUT_PROTOCOL, HTTP, REMIX, WEB, JOBS];

const boundaries = [
  { files: ['app/**/*.{ts,tsx}'], rules: restrict(APP_RULES) },
  { files: ['app/routes/**/*.{ts,tsx}'], rules: restrict(ROUTE_RULES) },
  { files: ['app/models/**/*.{ts,tsx}'], rules: restrict(MODEL_RULES) },
  { files: ['app/services/**/*.{ts,tsx}'], rules: restrict(SERVICE_RULES) },
  { files: ['app/domain/*.{ts,tsx}'], rules: restrict([DOMAIN_ONLY, DOMAIN_LEAVES]) },
  { files: ['app/domain/*/**/*.{ts,tsx}'], rules: restrict([DOMAIN_ONLY, DOMAIN_LEAVES_BELOW]) },
  { files: ['app/components/**/*.{ts,tsx}'], rules: restrict(COMPONENT_RULES) },
  { files: ['app/jobs/**/*.{ts,tsx}'], rules: restrict(JOB_RULES) },
  { files: ['app/reports/**/*.{ts,tsx}'], rules: restrict(REPORT_RULES) },
  { files: ['gateway/**/*.ts'], rules: restrict([APP]) },
  { files: ['cli/**/*.ts'], rules: restrict([CLI_APP, CLI_GATEWAY]) },
  // The demo's simulated gateways run the daemon's own client, backoff and state (not the product path).
  { files: ['app/demo/**/*.{ts,tsx}'], rules: restrict([]) },
];

// ---- coded concepts (docs/architecture.md, "Coded concepts") -----------------------------------
// A coded field is compared with its owner's constants or predicates (app/domain/store-status.ts,
// working-state.ts, alert-filter.ts, sensor-status.ts, roles.ts, report-form.ts), never with a
// number literal: two surfaces that each knew "3 is alarm" drifted apart (issue 31).
const CODED_FIELD = '/^(store_status|storeStatus|working_state|workingState|alert_filter|alertFilter|authority|report_type|reportType|output_format|outputFormat)$/';
const EQUALITY = "[operator=/^[=!]==?$/]";
const NUMBER = "%s.type='Literal'][%s.raw=/^[0-9]/";
const codedComparison = (field, literal) => `BinaryExpression${EQUALITY}[${field}][${NUMBER.replaceAll('%s', literal)}]`;
const CODED_MESSAGE = 'Compare a coded field with its owner module\'s constants or predicates (app/domain), not a number literal.';
const codedConcepts = {
  files: ['app/**/*.{ts,tsx}', 'cli/**/*.ts', 'scripts/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-syntax': [
      'error',
      ...[
        codedComparison(`left.property.name=${CODED_FIELD}`, 'right'),
        codedComparison(`right.property.name=${CODED_FIELD}`, 'left'),
        codedComparison(`left.name=${CODED_FIELD}`, 'right'),
        codedComparison(`right.name=${CODED_FIELD}`, 'left'),
        // A sensor's alert status (sensor.status), not an HTTP status (response.status).
        codedComparison("left.object.name=/sensor/i][left.property.name='status'", 'right'),
        `SwitchStatement[discriminant.property.name=${CODED_FIELD}] > SwitchCase > Literal.test`,
      ].map((selector) => ({ selector, message: CODED_MESSAGE })),
    ],
  },
};

export default tseslint.config(
  { ignores: ['build/', 'public/build/', '.cache/', '.data/', 'node_modules/', 'tmp/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.js'], languageOptions: { globals: globals.node } },
  ...boundaries,
  codedConcepts,
);
