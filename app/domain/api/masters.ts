import {
  CompanyIdSchema,
  CompanyListQuerySchema,
  CompanyPageSchema,
  CompanySavedSchema,
  CompanySaveSchema,
  DeletedSchema,
  StoregroupIdSchema,
  StoregroupListQuerySchema,
  StoregroupPageSchema,
  StoregroupSavedSchema,
  StoregroupSaveSchema,
  UsergroupIdSchema,
  UsergroupListQuerySchema,
  UsergroupLookupSchema,
  UsergroupPageSchema,
  UsergroupSavedSchema,
  UsergroupSaveSchema,
} from '../master-schemas';
import { body, defineCall, jsonAnswer, query } from './call';

// The system masters of 001 §2/§7: user groups, companies and store groups. The /edit calls are
// システム管理: administrators only (DESIGN.md "Administration: who may do what").

const systemMenu = { kind: 'user', permission: 'systemMenu' } as const;

const inUse = (what: string) => ({ status: 409, error: 'in_use', when: `${what}; reason names why, nothing is changed` });
const duplicate = (field: string) => ({ status: 400, error: 'duplicate_value', when: `mode create and the ${field} exists: "The same value can not be registered: ${field}"` });

export const listUsergroups = defineCall('listUsergroups', 'GET /on-reco/v1/usergroups', {
  summary: 'User groups, for the forms\' selects',
  description: 'Administrators and maintenance get all; others their own groups and the groups linked to the stores they see.',
  answer: jsonAnswer(UsergroupLookupSchema, 'usergroup_id, usergroup_name.'),
});

export const listUsergroupMaster = defineCall('listUsergroupMaster', 'GET /on-reco/v1/usergroups/edit', {
  summary: 'The user group master: one page, with an id filter and a name search',
  access: systemMenu,
  input: query(UsergroupListQuerySchema),
  answer: jsonAnswer(UsergroupPageSchema, 'all_count and the page, by usergroup_id.'),
  references: { usergroup_id: 'usergroup' },
});

export const saveUsergroup = defineCall('saveUsergroup', 'POST /on-reco/v1/usergroups/edit', {
  summary: 'Create a user group (no usergroup_id) or update one (usergroup_id)',
  access: systemMenu,
  input: body(UsergroupSaveSchema),
  answer: jsonAnswer(UsergroupSavedSchema, '201 when created, 200 when updated.', [201, 200]),
  errors: [
    { status: 400, error: 'invalid_request', when: 'usergroup_authority is not an authority of the authority list' },
    { status: 404, error: 'not_found', when: 'usergroup_id names no user group' },
    inUse('the change would leave no valid user with an administrator authority (last_administrator)'),
  ],
  references: { usergroup_id: 'usergroup' },
});

export const deleteUsergroup = defineCall('deleteUsergroup', 'DELETE /on-reco/v1/usergroups/edit', {
  summary: 'Delete a user group that has no members and no stores',
  description: 'usergroup_id in the query (001 §7) or in a JSON or form body.',
  access: systemMenu,
  input: body(UsergroupIdSchema),
  answer: jsonAnswer(DeletedSchema, 'Deleted.'),
  errors: [{ status: 404, error: 'not_found', when: 'usergroup_id names no user group' }, inUse('the group has members (usergroup_has_members) or stores (usergroup_has_stores)')],
  references: { usergroup_id: 'usergroup' },
});

export const listCompanyMaster = defineCall('listCompanyMaster', 'GET /on-reco/v1/company/edit', {
  summary: 'The company master: one page, with an id filter and a name search',
  access: systemMenu,
  input: query(CompanyListQuerySchema),
  answer: jsonAnswer(CompanyPageSchema, 'all_count and the page, by company_id. With company_id only, the company itself (the create form\'s uniqueness check).'),
  references: { company_id: 'company' },
});

export const saveCompany = defineCall('saveCompany', 'POST /on-reco/v1/company/edit', {
  summary: 'Create or update a company',
  description: 'mode (ours) create or update; left out, creates or updates by company_id as 001 §7.',
  access: systemMenu,
  input: body(CompanySaveSchema),
  answer: jsonAnswer(CompanySavedSchema, '201 when created, 200 when updated.', [201, 200]),
  errors: [duplicate('company_id'), { status: 404, error: 'not_found', when: 'mode update and company_id names no company' }],
  references: { company_id: 'company' },
});

export const deleteCompany = defineCall('deleteCompany', 'DELETE /on-reco/v1/company/edit', {
  summary: 'Delete a company that has no stores and no store groups',
  description: 'company_id in the query or in a JSON or form body.',
  access: systemMenu,
  input: body(CompanyIdSchema),
  answer: jsonAnswer(DeletedSchema, 'Deleted.'),
  errors: [{ status: 404, error: 'not_found', when: 'company_id names no company' }, inUse('the company has stores (company_has_stores) or store groups (company_has_storegroups)')],
  references: { company_id: 'company' },
});

export const listStoregroupMaster = defineCall('listStoregroupMaster', 'GET /on-reco/v1/storegroup/edit', {
  summary: 'The store group master: one page, with company and id filters and a name search',
  access: systemMenu,
  input: query(StoregroupListQuerySchema),
  answer: jsonAnswer(StoregroupPageSchema, 'all_count and the page, by company_id then storegroup_id.'),
  references: { company_id: 'company', storegroup_id: 'storegroup' },
});

export const saveStoregroup = defineCall('saveStoregroup', 'POST /on-reco/v1/storegroup/edit', {
  summary: 'Create or update a store group',
  description: 'mode (ours) create or update; left out, creates or updates by storegroup_id as 001 §7.',
  access: systemMenu,
  input: body(StoregroupSaveSchema),
  answer: jsonAnswer(StoregroupSavedSchema, '201 when created, 200 when updated.', [201, 200]),
  errors: [
    duplicate('storegroup_id'),
    { status: 400, error: 'invalid_request', when: 'company_id names no company' },
    { status: 404, error: 'not_found', when: 'mode update and storegroup_id names no store group' },
    inUse('the company of a store group that has stores changes (storegroup_company_has_stores)'),
  ],
  references: { storegroup_id: 'storegroup', company_id: 'company' },
});

export const deleteStoregroup = defineCall('deleteStoregroup', 'DELETE /on-reco/v1/storegroup/edit', {
  summary: 'Delete a store group that has no stores',
  description: 'storegroup_id in the query or in a JSON or form body.',
  access: systemMenu,
  input: body(StoregroupIdSchema),
  answer: jsonAnswer(DeletedSchema, 'Deleted.'),
  errors: [{ status: 404, error: 'not_found', when: 'storegroup_id names no store group' }, inUse('the store group has stores (storegroup_has_stores)')],
  references: { storegroup_id: 'storegroup' },
});
