// The frame every dialog's content renders: react-aria's Dialog (role dialog, labelled by its
// title) with a heading, the body and an optional row of actions. Usage:
//
//   <DialogFrame title={t('gate.password.title')} actions={<button type="submit" form="…">OK</button>}>
//     …fields…
//   </DialogFrame>
import type { ReactNode } from 'react';
import { Dialog, Heading } from 'react-aria-components';

export function DialogFrame({
  title,
  children,
  actions,
  role = 'dialog',
}: {
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  role?: 'dialog' | 'alertdialog';
}) {
  return (
    <Dialog className="dialog" role={role}>
      <Heading slot="title" className="dialog-title">
        {title}
      </Heading>
      <div className="dialog-body">{children}</div>
      {actions && <div className="dialog-actions">{actions}</div>}
    </Dialog>
  );
}
