// The modal dialog stack of application-spec §2 and §4. Usage:
//
//   const dialogs = useDialogs();
//   const password = await dialogs.open<string>(<SetPasswordDialog />, { dismissable: false });
//
// and inside the dialog's content:
//
//   const dialog = useDialog<string>();
//   <DialogFrame title={t('…')}> … <button onClick={() => dialog.resolve(value)}> … </DialogFrame>
//
// open() returns a promise that the content settles with dialog.resolve(value) or
// dialog.reject(reason); a dismissable dialog is also rejected with DialogDismissed by a backdrop
// click or Escape, while a backdrop click on an undismissable one makes it shake for 200 ms
// (dialog.shake() does the same, for a failed save). A settled dialog closes for 400 ms, then is
// removed. Only the front dialog that is not closing is active and shown: the ones under it are
// inert and hidden (visibility, so that neither their rows nor their buttons show through the
// front one's backdrop), and react-aria keeps focus inside the front one. A dialog belongs to the
// route it was opened on and is dismissed (DialogDismissed) when the route's path changes, whether
// a backdrop click may dismiss it or not (a mail link opened in the tab of the sign-up form shows
// the link's page, not the form's 'mail sent' over it); only a dialog opened with
// keepOnRouteChange (the access gate's forced dialogs, which the gate shows on any route it
// guards) stays until it is settled.
// A queued dialog (options.queued) waits until no other is open, so that dialogs arriving on
// their own come one after another instead of over each other. When a dialog is removed and the
// focus has fallen to the body (the inert closing dialog lost it), it goes back to the element
// that had it when the dialog opened, once react-aria has lifted the inert from the rest of the
// page: react-aria's own restore tries in the first frame and fails when the page is still inert
// then.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Modal, ModalOverlay } from 'react-aria-components';
import { useLocation } from 'react-router-dom';
import { MODAL_ANIMATION_MS, SHAKE_MS } from '../../developerMode';

/** The rejection of a dialog dismissed by its backdrop or Escape. */
export class DialogDismissed extends Error {
  constructor() {
    super('dialog dismissed');
    this.name = 'DialogDismissed';
  }
}

/** For a dialog's promise that only waits: a dismissal (Escape, the route's change) is no error. */
export function ignoreDismissal(error: unknown): void {
  if (!(error instanceof DialogDismissed)) throw error;
}

export interface DialogOptions {
  /** Whether a backdrop click or Escape cancels the dialog (true) or makes it shake (false). */
  dismissable?: boolean;
  /** Extra class on the modal panel (width, say). */
  className?: string;
  /**
   * Stays when the route's path changes, until it is settled: for the access gate's forced
   * dialogs alone, which belong to the session rather than to a route. Every other dialog is
   * dismissed (DialogDismissed) when its route is left.
   */
  keepOnRouteChange?: boolean;
  /**
   * Waits its turn: shown only once no other dialog is open, rather than over the one the
   * volunteer is reading. For dialogs that arrive on their own (the unread notifications, a
   * course's completion) and not in answer to the front dialog.
   */
  queued?: boolean;
}

export interface DialogControl<T> {
  resolve(value: T): void;
  reject(reason?: unknown): void;
  /** The 200 ms shake of a failed save or an invalid form. */
  shake(): void;
}

interface Entry {
  id: number;
  content: ReactNode;
  dismissable: boolean;
  keepOnRouteChange: boolean;
  className?: string;
  closing: boolean;
  shaking: boolean;
  /**
   * Waits for the stack to empty: it shows once it is the only dialog left (`revealed`), and from
   * then on also under dialogs opened over it.
   */
  queued: boolean;
  revealed: boolean;
  /** The element that had the focus when the dialog opened. */
  opener: HTMLElement | null;
  settle: { resolve(value: unknown): void; reject(reason: unknown): void };
}

interface DialogStack {
  open<T = void>(content: ReactNode, options?: DialogOptions): Promise<T>;
}

const StackContext = createContext<DialogStack | null>(null);
/** Whether a dialog is open: shown and not closing (the front one takes the keys and the pointer). */
const OpenContext = createContext(false);
const EntryContext = createContext<DialogControl<unknown> | null>(null);

/** The list with a queued dialog left alone at its bottom revealed. */
function revealAlone(list: Entry[]): Entry[] {
  const [only] = list;
  return list.length === 1 && only!.queued && !only!.revealed ? [{ ...only!, revealed: true }] : list;
}

/** The dialogs of the app; mounted once, around the router. */
export function DialogProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const nextId = useRef(1);
  const { pathname } = useLocation();

  const update = useCallback((id: number, change: Partial<Entry>) => {
    setEntries((list) => list.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
  }, []);

  const close = useCallback(
    (id: number) => {
      update(id, { closing: true });
      setTimeout(() => setEntries((list) => revealAlone(list.filter((entry) => entry.id !== id))), MODAL_ANIMATION_MS);
    },
    [update],
  );

  const open = useCallback(<T,>(content: ReactNode, options: DialogOptions = {}) => {
    return new Promise<T>((resolve, reject) => {
      const id = nextId.current++;
      const entry: Entry = {
        id,
        content,
        dismissable: options.dismissable ?? true,
        keepOnRouteChange: options.keepOnRouteChange ?? false,
        className: options.className,
        closing: false,
        shaking: false,
        queued: options.queued ?? false,
        revealed: false,
        opener:
          document.activeElement instanceof HTMLElement && document.activeElement !== document.body
            ? document.activeElement
            : null,
        settle: { resolve: resolve as (value: unknown) => void, reject },
      };
      setEntries((list) => revealAlone([...list, entry]));
    });
  }, []);

  const stack = useMemo<DialogStack>(() => ({ open }), [open]);
  // A queued dialog shows once it is the only dialog left (every other closed and faded out,
  // also one opened after it), and from then on stays shown under any dialog opened over it.
  const shown = entries.filter((entry) => !entry.queued || entry.revealed);
  const front = shown.findLastIndex((entry) => !entry.closing);

  return (
    <StackContext.Provider value={stack}>
      <OpenContext.Provider value={front >= 0}>{children}</OpenContext.Provider>
      {shown.map((entry, index) => (
        <StackEntry
          key={entry.id}
          entry={entry}
          active={index === front}
          behind={index < front}
          pathname={pathname}
          update={update}
          close={close}
        />
      ))}
    </StackContext.Provider>
  );
}

function StackEntry({
  entry,
  active,
  behind,
  pathname,
  update,
  close,
}: {
  entry: Entry;
  active: boolean;
  behind: boolean;
  pathname: string;
  update: (id: number, change: Partial<Entry>) => void;
  close: (id: number) => void;
}) {
  const settled = useRef(false);
  const control = useMemo<DialogControl<unknown>>(() => {
    const finish = (settle: () => void) => {
      if (settled.current) return;
      settled.current = true;
      settle();
      close(entry.id);
    };
    return {
      resolve: (value) => finish(() => entry.settle.resolve(value)),
      reject: (reason) => finish(() => entry.settle.reject(reason)),
      shake: () => {
        update(entry.id, { shaking: true });
        setTimeout(() => update(entry.id, { shaking: false }), SHAKE_MS);
      },
    };
  }, [entry.id, entry.settle, update, close]);

  const { opener } = entry;
  useLayoutEffect(() => () => returnFocus(opener), [opener]);

  // The route's path when the dialog first showed: the dialog closes when it changes.
  const [openedOn] = useState(pathname);
  const leftRoute = !entry.keepOnRouteChange && pathname !== openedOn;
  useEffect(() => {
    if (leftRoute) control.reject(new DialogDismissed());
  }, [leftRoute, control]);

  return (
    <ModalShell
      active={active}
      behind={behind}
      dismissable={entry.dismissable}
      closing={entry.closing}
      shaking={entry.shaking}
      className={entry.className}
      onDismiss={() => control.reject(new DialogDismissed())}
      onShake={control.shake}
    >
      <EntryContext.Provider value={control}>{entry.content}</EntryContext.Provider>
    </ModalShell>
  );
}

/** Frames to wait for react-aria to lift the inert it laid outside a removed modal. */
const RETURN_FOCUS_FRAMES = 30;

/**
 * Focuses the opener of a removed dialog if the focus fell to the body. react-aria lifts the inert
 * it put on the rest of the page in an effect that may run a few frames after the removal, and an
 * inert element takes no focus, so this waits for the opener to leave the inert part.
 */
function returnFocus(opener: HTMLElement | null, frames = RETURN_FOCUS_FRAMES): void {
  if (!opener) return;
  requestAnimationFrame(() => {
    const focused = document.activeElement;
    if ((focused !== null && focused !== document.body) || !opener.isConnected) return;
    if (opener.closest('[inert]')) {
      if (frames > 0) returnFocus(opener, frames - 1);
      return;
    }
    opener.focus({ preventScroll: true });
  });
}

/**
 * The overlay, backdrop and panel of one modal: a backdrop click or Escape calls onDismiss when
 * dismissable, a backdrop click calls onShake otherwise. The stack uses it for every dialog; a
 * route shown as a modal (/password_reset) uses it directly.
 */
export function ModalShell({
  active = true,
  behind = false,
  dismissable,
  closing = false,
  shaking = false,
  className,
  onDismiss,
  onShake,
  children,
}: {
  active?: boolean;
  /** Under the front dialog: hidden, so that only the front one shows. */
  behind?: boolean;
  dismissable: boolean;
  closing?: boolean;
  shaking?: boolean;
  className?: string;
  onDismiss: () => void;
  onShake?: () => void;
  children: ReactNode;
}) {
  const backdrop = () => {
    if (!active) return;
    if (dismissable) onDismiss();
    else onShake?.();
  };
  return (
    <ModalOverlay
      isOpen
      isDismissable={false}
      isKeyboardDismissDisabled={!dismissable || !active}
      onOpenChange={(open) => {
        if (!open && active && dismissable) onDismiss();
      }}
      className="dialog-overlay"
      data-closing={closing || undefined}
      data-behind={behind || undefined}
      inert={!active}
    >
      <Modal className="dialog-modal">
        {/* Inside the Modal: react-aria makes everything outside it inert. */}
        <div className="dialog-backdrop" data-testid="dialog-backdrop" onClick={backdrop} aria-hidden="true" />
        <div className={['dialog-panel', shaking ? 'shake' : '', className ?? ''].join(' ').trim()}>{children}</div>
      </Modal>
    </ModalOverlay>
  );
}

/** The dialog stack, for opening dialogs. */
export function useDialogs(): DialogStack {
  const stack = useContext(StackContext);
  if (!stack) throw new Error('useDialogs() needs a <DialogProvider> above it');
  return stack;
}

/**
 * Whether a dialog is open, shown and not closing: the page under it takes no keys then (see
 * isShortcut). One closing (fading out for 400 ms) is settled already and counts as gone.
 */
export function useDialogOpen(): boolean {
  return useContext(OpenContext);
}

/** Inside a dialog's content: settle it or shake it. */
export function useDialog<T = void>(): DialogControl<T> {
  const control = useContext(EntryContext);
  if (!control) throw new Error('useDialog() is for content opened with useDialogs().open()');
  return control as DialogControl<T>;
}
