import {
  AuthorityListAnswerSchema,
  UserDeleteAnswerSchema,
  UserDeleteSchema,
  UserListAnswerSchema,
  UserListQuerySchema,
  UserSaveAnswerSchema,
  UserSaveSchema,
} from '../user-master';
import { body, defineCall, jsonAnswer, query } from './call';

// The user master and the store users (001 §2, §7): list, save and delete users, and the authority
// list. The store-user form uses the same calls: GET /v1/users/edit?user_id to fetch, POST with
// store_id to save (docs/decisions/121-user-calls.md). Case and area managers are scoped (DESIGN.md).

/** マスタ管理: administrators, case managers and area managers (maintenance and store users 403). */
const master = { kind: 'user', permission: 'masterMenu' } as const;

export const listUsers = defineCall('listUsers', 'GET /on-reco/v1/users/edit', {
  summary: 'The user master list: one page of the users the caller may see, filtered',
  description:
    'Administrators see every user; case and area managers the members of their own groups and of the store-user (101) groups linked to their stores. user_name and mailaddress match a part (case-insensitive); ordered by user_id.',
  access: master,
  input: query(UserListQuerySchema),
  answer: jsonAnswer(UserListAnswerSchema, 'all_count and the page of users (each with its groups and authority).'),
  references: { usergroup_id: 'usergroup', user_id: 'user' },
});

export const saveUser = defineCall('saveUser', 'POST /on-reco/v1/users/edit', {
  summary: 'Create (no user_id) or update a user; with store_id, the store-user form\'s save',
  description:
    'A new user gets a welcome mail in their language with a temporary password. An inactive user is saved with notice_flg 0 and alert_filter 2; deactivating ends the user\'s sessions. login_id cannot change.',
  access: master,
  input: body(UserSaveSchema),
  answer: jsonAnswer(UserSaveAnswerSchema, '201 with the user when created, 200 when updated.', [201, 200]),
  errors: [
    { status: 400, error: 'duplicate_value', when: 'login_id or mailaddress1 is held by another user: "The same value can not be registered: <field>"' },
    { status: 403, error: 'forbidden', when: 'the user is more privileged than the caller, a group may not be assigned by the caller (another\'s, administrator, maintenance or more privileged), or the caller changes their own authority or deactivates themselves' },
    { status: 404, error: 'not_found', when: 'the user, store, company or a user group is not one the caller may see' },
    { status: 409, error: 'last_administrator', when: 'the last active administrator would be deactivated or lose the administrator authority' },
  ],
  references: { user_id: 'user', company_id: 'company', usergroup: 'usergroup', store_id: 'store' },
});

export const deleteUser = defineCall('deleteUser', 'DELETE /on-reco/v1/users/edit', {
  summary: 'Delete a user (their name stays on the history they wrote; their sessions end)',
  description: 'user_id in the query (001 §7: DELETE /v1/users/edit?user_id=) or in a JSON or form body.',
  access: master,
  input: body(UserDeleteSchema),
  answer: jsonAnswer(UserDeleteAnswerSchema, 'The user is deleted.'),
  errors: [
    { status: 403, error: 'forbidden', when: 'the user is more privileged than the caller, or is the caller' },
    { status: 404, error: 'not_found', when: 'the user does not exist or is not one the caller may see' },
    { status: 409, error: 'last_administrator', when: 'the user is the last active administrator' },
  ],
  references: { user_id: 'user' },
});

export const listAuthorities = defineCall('listAuthorities', 'GET /on-reco/v1/authority', {
  summary: 'The authorities the caller may give (authority, authorityName), for the user group form',
  description: 'Administrators get every authority; case and area managers their own and the less privileged ones, never administrator or maintenance.',
  access: master,
  answer: jsonAnswer(AuthorityListAnswerSchema, 'The authorities, most privileged first.'),
});
