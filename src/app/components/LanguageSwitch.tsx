import { useTranslation } from 'react-i18next';
import { LOCALES } from '../../shared/api';

const NAMES: Record<string, string> = { en: 'English', ja: '日本語' };

/** Language selector (en, ja); the choice is remembered by i18n/index.ts. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span>{t('common.language')}</span>
      <select value={i18n.resolvedLanguage} onChange={(event) => void i18n.changeLanguage(event.target.value)}>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale}>
            {NAMES[locale]}
          </option>
        ))}
      </select>
    </label>
  );
}
