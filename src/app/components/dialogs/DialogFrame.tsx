// The frame every dialog's content renders: react-aria's Dialog (role dialog, labelled by its
// title) with a heading, the body and an optional row of actions. With onSubmit, body and
// actions are one form (the browser's own validation off: the §5 rules show in tooltips).
// Usage:
//
//   <DialogFrame title={t('gate.password.title')} onSubmit={save}
//                actions={<button type="submit" className="button primary">{t('common.save')}</button>}>
//     …fields…
//   </DialogFrame>
import type { FormEvent, ReactNode } from 'react';
import { Dialog, Heading } from 'react-aria-components';

export function DialogFrame({
  title,
  children,
  actions,
  onSubmit,
  role = 'dialog',
}: {
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  role?: 'dialog' | 'alertdialog';
}) {
  const content = (
    <>
      <div className="dialog-body">{children}</div>
      {actions && <div className="dialog-actions">{actions}</div>}
    </>
  );
  return (
    <Dialog className="dialog" role={role}>
      <Heading slot="title" className="dialog-title">
        {title}
      </Heading>
      {onSubmit ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(event);
          }}
        >
          {content}
        </form>
      ) : (
        content
      )}
    </Dialog>
  );
}
