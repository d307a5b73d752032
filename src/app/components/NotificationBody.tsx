// The body of a notification (application-spec §3, §5), the one place a notification's message
// is drawn: the admin preview, the login messages and the notification list all use it.
// - html: the administrator's HTML, sanitised by DOMPurify before it reaches the page, so that
//   a <script>, an on* attribute or a javascript: link in a mistaken body never runs;
// - otherwise plain text, line breaks kept;
// - custom_component: a "special notification" whose body is a client component; its message
//   holds only customComponentMarker(name). An unknown name is logged only (§8).
import DOMPurify from 'dompurify';
import { useMemo, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import './NotificationBody.css';

/** The winter 2025 gift campaign's announcement: a link to its form. */
function Present2025Winter() {
  const { t } = useTranslation();
  return (
    <p>
      {t('notifications.custom.present2025winter')}{' '}
      <Link to="/present2025winter" className="link">
        {t('notifications.custom.present2025winterLink')}
      </Link>
    </p>
  );
}

/** Custom components a special notification may name. */
export const CUSTOM_COMPONENTS: Readonly<Record<string, ComponentType>> = { Present2025Winter };

/** What the special-notification button writes into the body in place of the text. */
export function customComponentMarker(name: string): string {
  return `[[custom-component:${name}]]`;
}

/** HTML with everything that could run script removed (DOMPurify's HTML profile). */
export function sanitizeNotificationHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

export function NotificationBody({
  message,
  html,
  customComponent,
}: {
  message: string;
  html: boolean;
  customComponent?: string | null;
}) {
  const clean = useMemo(() => (html ? sanitizeNotificationHtml(message) : ''), [html, message]);
  if (customComponent) {
    const Custom = CUSTOM_COMPONENTS[customComponent];
    if (Custom)
      return (
        <div className="notification-body">
          <Custom />
        </div>
      );
    console.warn(`Unknown custom notification component: ${customComponent}`);
    return <div className="notification-body" />;
  }
  if (html) return <div className="notification-body" dangerouslySetInnerHTML={{ __html: clean }} />;
  return <div className="notification-body plain">{message}</div>;
}
