export {
  DialogDismissed,
  DialogProvider,
  ignoreDismissal,
  ModalShell,
  useDialog,
  useDialogOpen,
  useDialogs,
} from './DialogStack';
export type { DialogControl, DialogOptions } from './DialogStack';
export { DialogFrame } from './DialogFrame';
export { MessageDialog } from './MessageDialog';
