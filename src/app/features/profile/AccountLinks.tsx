// The account links of the main screen's header: the profile modal, credits and terms of use.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '../terms/textPage.css';
import { useSession } from '../../api/session';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { ProfileDialog } from './ProfileDialog';

export function AccountLinks() {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const user = useSession().data?.current_user;
  return (
    <nav className="account-links">
      {user && (
        <button
          type="button"
          className="button"
          onClick={() =>
            void dialogs.open(<ProfileDialog user={user} />).catch((error: unknown) => {
              if (!(error instanceof DialogDismissed)) throw error;
            })
          }
        >
          {t('profile.open')}
        </button>
      )}
      <Link to="/credits" className="link">
        {t('profile.credits')}
      </Link>
      <Link to="/terms" className="link">
        {t('profile.terms')}
      </Link>
    </nav>
  );
}
