import { type LoaderFunctionArgs, json } from '@remix-run/node';
import { getDb } from '~/db/db.server';
import { requireRole } from '~/http/access.server';
import { listAssignableGroups } from '~/models/user-master.server';

// The user group filters' options (the user master, the user group master), loaded by the select
// when it is opened rather than with every page: 5,000 groups would otherwise be read and sent on
// each page of the list (issue 13 figures). Scoped as the user master's group selects are.
export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await requireRole(request, 'masterMenu');
  const groups = await listAssignableGroups(getDb(), viewer);
  return json(groups.map((group) => ({ value: String(group.usergroup_id), label: group.usergroup_name })));
}
