// The developer pages of application-spec §2, present only in developer mode (router.tsx adds
// the route then): Home lists them; Login, PasswordReset and SignUp show those screens; the
// session viewer prints GET /api/session; the i18n test puts every string in both languages side
// by side; the playground opens the shared pieces (dialogs, flash, tooltip, spinner).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes } from 'react-router-dom';
import { useSession } from '../../api/session';
import { DialogDismissed, MessageDialog, useDialogs } from '../../components/dialogs';
import { useFlash } from '../../components/Flash';
import { Spinner } from '../../components/Spinner';
import { FieldTooltip } from '../../components/Tooltip';
import { resources } from '../../i18n';
import { LoginPage } from '../login/LoginPage';
import { PasswordResetPage } from '../password-reset/PasswordResetPage';
import { SignupPage } from '../signup/SignupPage';

const PAGES = ['Home', 'Login', 'PasswordReset', 'SignUp', 'SessionViewer', 'I18nTest', 'PlayGround'] as const;

export function DevelPages() {
  return (
    <Routes>
      <Route path="Home" element={<DevelHome />} />
      <Route path="Login" element={<LoginPage />} />
      <Route path="PasswordReset" element={<PasswordResetPage />} />
      <Route path="SignUp" element={<SignupPage />} />
      <Route path="SessionViewer" element={<SessionViewer />} />
      <Route path="I18nTest" element={<I18nTest />} />
      <Route path="PlayGround" element={<PlayGround />} />
      <Route path="*" element={<DevelHome />} />
    </Routes>
  );
}

function DevelHome() {
  return (
    <main className="panel devel-page">
      <h1>/devel</h1>
      <ul>
        {PAGES.map((page) => (
          <li key={page}>
            <Link to={`/devel/${page}`}>{page}</Link>
          </li>
        ))}
      </ul>
    </main>
  );
}

function SessionViewer() {
  const session = useSession();
  return (
    <main className="panel devel-page">
      <h1>SessionViewer</h1>
      {session.isPending ? <Spinner /> : <pre>{JSON.stringify(session.data, null, 2)}</pre>}
    </main>
  );
}

/** Every key with its English and Japanese text, flattened. */
function flatten(tree: object, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : flatten(value as object, `${prefix}${key}.`),
  );
}

function I18nTest() {
  const ja = new Map(flatten(resources.ja.translation));
  return (
    <main className="panel devel-page">
      <h1>I18nTest</h1>
      <table>
        <thead>
          <tr>
            <th>key</th>
            <th>en</th>
            <th>ja</th>
          </tr>
        </thead>
        <tbody>
          {flatten(resources.en.translation).map(([key, text]) => (
            <tr key={key}>
              <td>{key}</td>
              <td>{text}</td>
              <td lang="ja">{ja.get(key) ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

function PlayGround() {
  const { t } = useTranslation();
  const dialogs = useDialogs();
  const flash = useFlash();
  const [result, setResult] = useState('');
  const [tooltip, setTooltip] = useState(false);
  const open = (dismissable: boolean) =>
    dialogs
      .open(<MessageDialog title={dismissable ? 'dismissable' : 'undismissable'} message="PlayGround" />, {
        dismissable,
      })
      .then(
        () => setResult('resolved'),
        (reason: unknown) => setResult(reason instanceof DialogDismissed ? 'dismissed' : 'rejected'),
      );
  return (
    <main className="panel devel-page">
      <h1>PlayGround</h1>
      <p>
        <button type="button" className="button" onClick={() => void open(true)}>
          dismissable dialog
        </button>{' '}
        <button type="button" className="button" onClick={() => void open(false)}>
          undismissable dialog
        </button>{' '}
        <button type="button" className="button" onClick={() => flash(t('common.loading'))}>
          flash
        </button>{' '}
        <button type="button" className="button" onClick={() => setTooltip((shown) => !shown)}>
          tooltip
        </button>
      </p>
      <p data-testid="playground-result">{result}</p>
      <FieldTooltip errors={['first error', 'second error']} show={tooltip} />
      <Spinner />
    </main>
  );
}
