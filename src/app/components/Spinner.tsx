import { useTranslation } from 'react-i18next';

/** The loading spinner of application-spec §2, with optional text (default 'Loading'). */
export function Spinner({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner-wheel" aria-hidden="true" />
      <span>{text ?? t('common.loading')}</span>
    </div>
  );
}
