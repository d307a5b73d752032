// The loading spinner of application-spec §2: a wheel with a text, 'Loading' by default.
// Usage: <Spinner /> or <Spinner text={t('common.loadingSession')} />.
import { useTranslation } from 'react-i18next';

export function Spinner({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner-wheel" aria-hidden="true" />
      <span>{text ?? t('common.loading')}</span>
    </div>
  );
}
