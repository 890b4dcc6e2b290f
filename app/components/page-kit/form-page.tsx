import type { ReactNode } from 'react';
import { FormCloseButton } from '~/components/form-close';
import { Page } from '~/components/page';

/**
 * A form screen: the title with the close icon, which asks before discarding (always, 001 §2)
 * and goes back to `closeTo`.
 */
export function FormPage({ title, closeTo, narrow = true, children }: { title: string; closeTo: string; narrow?: boolean; children: ReactNode }) {
  return (
    <Page title={title} narrow={narrow} actions={<FormCloseButton to={closeTo} />}>
      {children}
    </Page>
  );
}
