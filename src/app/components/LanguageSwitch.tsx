// The language selector (en, ja); the choice is remembered by i18n/index.ts.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '../../../shared/api';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <div className="language-switch">
      <label htmlFor={id}>{t('common.language')}</label>
      <select id={id} value={i18n.resolvedLanguage} onChange={(event) => void i18n.changeLanguage(event.target.value)}>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {t(`common.languageNames.${locale}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
