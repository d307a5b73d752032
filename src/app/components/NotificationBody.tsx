// The body of a notification (application-spec §3, §5), the one place a notification's message
// is drawn: the admin preview, the login messages and the notification list all use it.
// - html: the administrator's HTML, sanitised by DOMPurify before it reaches the page, so that
//   a <script>, an on* attribute or a javascript: link in a mistaken body never runs, and with
//   the rules of notificationHtml.ts (no forms, no styles, images of the site's own only);
// - otherwise plain text, line breaks kept;
// - custom_component: a "special notification" whose body is a client component; its message
//   holds only customComponentMarker(name). An unknown name is logged only (§8).
import DOMPurify from 'dompurify';
import { useMemo, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import './NotificationBody.css';
import { FORBIDDEN_ATTRIBUTES, FORBIDDEN_TAGS, isOwnImageSource } from './notificationHtml';

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

let purifier: ReturnType<typeof DOMPurify> | undefined;

/** A DOMPurify of its own, so that its hook applies to notifications only; made on first use (in a browser). */
function notificationPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('uponSanitizeElement', (node) => {
    if (node instanceof HTMLImageElement && !isOwnImageSource(node.getAttribute('src') ?? '', window.location.origin))
      node.remove();
  });
  return purifier;
}

/**
 * HTML with everything that could run script removed (DOMPurify's HTML profile), and forms,
 * styles and other origins' images too (notificationHtml.ts).
 */
export function sanitizeNotificationHtml(html: string): string {
  return notificationPurifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [...FORBIDDEN_TAGS],
    FORBID_ATTR: [...FORBIDDEN_ATTRIBUTES],
  });
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
