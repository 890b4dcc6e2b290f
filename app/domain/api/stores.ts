import { ChainOverviewAnswerSchema, ChainOverviewQuerySchema } from '../chain-overview-schemas';
import { IMPORT_MAX_BYTES, ImportAnswerSchema, StoreImportDocumentedSchema, StoreImportRequestSchema } from '../store-import';
import { StoreListQuerySchema } from '../store-list-schemas';
import {
  GatewayExchangeAnswerSchema,
  GatewayExchangeRequestSchema,
  GatewayPinAnswerSchema,
  RemovalAnswerSchema,
  RemovalRequestSchema,
  StoreIdSchema,
  StoreInfoAnswerSchema,
  StoreListAnswerSchema,
  StoreSaveAnswerSchema,
  StoreSaveSchema,
  StoreUsersAnswerSchema,
} from '../store-schemas';
import { body, defineCall, jsonAnswer, query } from './call';

// The dashboard's store list, the store master and the store management page (000 §3, §4, §7; 001 §3).

/** The store management page's calls: administrators and maintenance, on a store they name. */
const storeManagement = { kind: 'user', permission: 'storeManagement', store: 'store_id' } as const;

export const listStores = defineCall('listStores', 'GET /on-reco/v1/store_list', {
  summary: 'The dashboard: one page of the stores the user may see, with their alert messages',
  input: query(StoreListQuerySchema),
  answer: jsonAnswer(StoreListAnswerSchema, 'all_count, alert_count and the page, stores in alarm first.'),
  references: { region_id: 'region', prefecture_id: 'prefecture', company_id: 'company', storegroup_id: 'storegroup' },
});

export const getChainOverview = defineCall('getChainOverview', 'GET /on-reco/v1/chain_overview', {
  summary: 'The chain at a glance: the stores the user may see counted by status, alert kind, region, prefecture, store group and furniture kind, worst stores first',
  description:
    'The dashboard\'s stores, access rule and filters (region_id, company_id, storegroup_id). Stores in alarm, then not connected, are the worst; worst_stores lists up to worst_count of them. Sensors count under an alert kind per open code. Decision 292.',
  access: { kind: 'user', permission: 'chainOverview' },
  input: query(ChainOverviewQuerySchema),
  answer: jsonAnswer(ChainOverviewAnswerSchema, 'Counts by status, alert kind, region, prefecture (with its worst status), store group and furniture kind, and the worst stores.'),
  references: { region_id: 'region', company_id: 'company', storegroup_id: 'storegroup' },
});

export const getStore = defineCall('getStore', 'GET /on-reco/v1/stores', {
  summary: 'The store info',
  description: 'pin_code and effective_time are the current PIN for administrators and maintenance, null for others.',
  access: { kind: 'user', store: 'store_id' },
  input: query(StoreIdSchema),
  answer: jsonAnswer(StoreInfoAnswerSchema, 'The store info of 000 §3.'),
});

export const saveStore = defineCall('saveStore', 'POST /on-reco/v1/stores', {
  summary: 'Create or update a store (the whole store entity)',
  description:
    'Create or update is decided from store_id: a store the user may see is updated (masterMenu or storeManagement), any other store_id is created (masterMenu); the service decides, 403 otherwise. A store_id taken by a store the user may not see is a duplicate.',
  input: body(StoreSaveSchema),
  answer: jsonAnswer(StoreSaveAnswerSchema, '201 with the store when it was created, 200 when updated.', [201, 200]),
  errors: [
    { status: 400, error: 'duplicate_value', when: 'a unique value is held by another store: "The same value can not be registered: <field>"' },
    { status: 403, error: 'forbidden', when: 'the user may not create or update this store, may not assign a user group they see (only their own or store-user groups of their stores), or creates a store none of whose groups is theirs' },
    { status: 404, error: 'not_found', when: 'a store group, company or user group of a chain the user may not see' },
    { status: 400, error: 'invalid_request', when: 'a referenced store group, prefecture or user group does not exist, the store group is not of company_id, a user group is an administrator or maintenance group (decision 245) or of other companies only (linked to their stores or holding their users; decision 271), or the opening date of an operating store changes' },
  ],
  references: { store_id: 'store', company_id: 'company', storegroup_id: 'storegroup', usergroup: 'usergroup', prefecture_id: 'prefecture' },
});

export const importStores = defineCall('importStores', 'POST /on-reco/v1/stores/import', {
  summary: 'Create many stores with their user groups and sensors at once, all or nothing (onreco stores import)',
  description:
    'Each store is the store save\'s entity (user groups by id or by name) with its sensors as the sensor registration takes them. A store_id that exists is left as it is and its new serials are registered; a serial the store has is left as it is: importing the same stores twice changes nothing. Every store and sensor is checked first; any refusal is 400 with fields named stores.<i>.<field> or stores.<i>.sensors.<j>.<field>, and nothing is written. dry_run answers what would be created. Decision 153.',
  access: { kind: 'user', permission: 'storeImport' },
  input: body(StoreImportRequestSchema, { encoding: 'json-gzip', maxBytes: IMPORT_MAX_BYTES, documented: StoreImportDocumentedSchema }),
  answer: jsonAnswer(ImportAnswerSchema, 'What was created (or, with dry_run, would be) and what was there already, by store.'),
  errors: [{ status: 409, error: 'conflict', when: 'another save took one of the stores\' values while the import ran; nothing was written, run it again' }],
});

export const getStorePin = defineCall('getStorePin', 'GET /on-reco/v1/stores/pin', {
  summary: 'The store\'s gateway PIN, issued on the spot when none is valid',
  access: storeManagement,
  input: query(StoreIdSchema),
  answer: jsonAnswer(GatewayPinAnswerSchema, 'The PIN and until when it is valid (null for a removed store).'),
});

export const reissueStorePin = defineCall('reissueStorePin', 'POST /on-reco/v1/stores/pin', {
  summary: 'Reissue the store\'s gateway PIN (the new PIN replaces the old)',
  access: storeManagement,
  input: body(StoreIdSchema),
  answer: jsonAnswer(GatewayPinAnswerSchema, 'The new PIN and until when it is valid.'),
  errors: [{ status: 409, error: 'invalid_state', when: 'a removed store has no PIN; exchange its gateway first' }],
});

export const exchangeStoreGateway = defineCall('exchangeStoreGateway', 'POST /on-reco/v1/stores/gateway', {
  summary: 'Exchange the store\'s gateway (ゲートウェイ交換)',
  description: 'For an operating (1) or removed (2) store: the old gateway\'s token is revoked and the store waits for the new gateway (working_state 0) until it pairs with the PIN.',
  access: storeManagement,
  input: body(GatewayExchangeRequestSchema),
  answer: jsonAnswer(GatewayExchangeAnswerSchema, 'The store\'s new gateway and working state.'),
  errors: [
    { status: 409, error: 'invalid_state', when: 'the store is not operating or removed' },
    { status: 400, error: 'duplicate_value', when: 'another store has this gateway: "The same value can not be registered: gateway_info"' },
  ],
});

export const removeGateway = defineCall('removeGateway', 'POST /on-reco/v1/equipments/removal', {
  summary: 'Remove (撤去) an operating store\'s gateway',
  description: 'gateway_info "" means the store\'s gateway, whatever it is; a non-empty value must be it.',
  access: storeManagement,
  input: body(RemovalRequestSchema),
  answer: jsonAnswer(RemovalAnswerSchema, 'The store is removed (working_state 2).'),
  errors: [
    { status: 409, error: 'invalid_state', when: 'the store is not operating or has no gateway' },
    { status: 409, error: 'conflict', when: 'gateway_info is not the store\'s gateway (a stale page)' },
  ],
});

export const listStoreUsers = defineCall('listStoreUsers', 'GET /on-reco/v1/store_users', {
  summary: 'Everyone who can see the store',
  access: { kind: 'user', permission: 'storeSettings', store: 'store_id' },
  input: query(StoreIdSchema),
  answer: jsonAnswer(StoreUsersAnswerSchema, 'The store\'s users with their notification settings.'),
});
