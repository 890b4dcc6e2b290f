import type { ReactNode } from 'react';
import { FormCloseButton } from '~/components/form-close';
import { Page } from '~/components/page';

/**
 * A form screen: the title with the close icon, which asks before discarding edits (`dirty`)
 * and goes back to `closeTo`.
 */
export function FormPage({ title, closeTo, dirty, narrow = true, children }: { title: string; closeTo: string; dirty: boolean; narrow?: boolean; children: ReactNode }) {
  return (
    <Page title={title} narrow={narrow} actions={<FormCloseButton to={closeTo} dirty={dirty} />}>
      {children}
    </Page>
  );
}
