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

const restrict = (patterns) => ({ [rule]: ['error', { patterns }] });

const APP_RULES = [GATEWAY_BUT_PROTOCOL];
const ROUTE_RULES = [GATEWAY_BUT_PROTOCOL, DATABASE];
const MODEL_RULES = [GATEWAY_BUT_PROTOCOL, SERVICES, HTTP, REMIX];
const SERVICE_RULES = [GATEWAY_BUT_PROTOCOL, HTTP, REMIX];
const COMPONENT_RULES = [GATEWAY_BUT_PROTOCOL, SERVER_MODULES];

const boundaries = [
  { files: ['app/**/*.{ts,tsx}'], rules: restrict(APP_RULES) },
  { files: ['app/routes/**/*.{ts,tsx}'], rules: restrict(ROUTE_RULES) },
  { files: ['app/models/**/*.{ts,tsx}'], rules: restrict(MODEL_RULES) },
  { files: ['app/services/**/*.{ts,tsx}'], rules: restrict(SERVICE_RULES) },
  { files: ['app/domain/*.{ts,tsx}'], rules: restrict([DOMAIN_ONLY, DOMAIN_LEAVES]) },
  { files: ['app/domain/*/**/*.{ts,tsx}'], rules: restrict([DOMAIN_ONLY, DOMAIN_LEAVES_BELOW]) },
  { files: ['app/components/**/*.{ts,tsx}'], rules: restrict(COMPONENT_RULES) },
  { files: ['gateway/**/*.ts'], rules: restrict([APP]) },
  // The demo's simulated gateways run the daemon's own client, backoff and state (not the product path).
  { files: ['app/demo/**/*.{ts,tsx}'], rules: restrict([]) },
];

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
);
