// onreco notices list | create: the notices every user sees in the console's bar (administrators post).
import { Command } from 'commander';
import { createNotice, listNotices } from '../../app/domain/api/notices';
import { print, stampText, tableText } from '../output';
import { type CliContext, clientOf, examples, positiveInteger, withJson } from './common';

export function noticesCommand(ctx: CliContext): Command {
  const list = withJson(new Command('list').description('the newest notices').option('--limit <n>', 'how many', positiveInteger('--limit'), 10)).action(async (options) => {
    const notices = await (await clientOf(ctx)).call(listNotices, { limit: options.limit });
    print(ctx, options, notices, () =>
      tableText(notices, [
        { header: 'POSTED', value: (notice) => stampText(notice.created_datetime) },
        { header: 'TITLE', value: (notice) => notice.title },
        { header: 'CONTENT', value: (notice) => notice.content },
      ]),
    );
  });
  const create = withJson(
    new Command('create').description('post a notice to every user (administrators)').requiredOption('--title <text>', 'at most 30 characters').requiredOption('--content <text>', 'at most 100 characters'),
  ).action(async (options) => {
    const notice = await (await clientOf(ctx)).call(createNotice, { title: options.title, content: options.content });
    print(ctx, options, notice, () => `Posted notice ${notice.notice_id}: ${notice.title}\n`);
  });
  return new Command('notices')
    .description('notices shown to every user')
    .addCommand(examples(list, 'onreco notices list --limit 5'))
    .addCommand(examples(create, 'onreco notices create --title "点検のお知らせ" --content "12/1 2:00-4:00 にシステム点検を行います"'));
}
