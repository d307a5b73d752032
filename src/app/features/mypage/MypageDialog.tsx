// The mypage (application-spec §2, §4, §9), opened by the suitcase: a greeting with the nickname;
// account info (the profile modal) and delete account; the cabin rank with 4 − rank stars by the
// share of season2 areas finished; the galaxies classified per course (season2, final_campaign,
// illustris); the cruise map of the course on screen (not for illustris and final_campaign);
// the events, inactive campaigns included; and the certificates, only when one is earned.
import { Star } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useCourseName } from '../../api/courses';
import { areasOfCourse } from '../../api/quests';
import { skyDataUrl } from '../../api/dataRepository';
import { useSession } from '../../api/session';
import { DialogDismissed, DialogFrame, useDialog, useDialogs } from '../../components/dialogs';
import { Spinner } from '../../components/Spinner';
import { currentLocale } from '../../i18n';
import { campaignProgress, campaignStatus } from '../../api/campaigns';
import { formatDateTime } from '../../components/formatDateTime';
import { ProfileDialog } from '../profile/ProfileDialog';
import { useDeleteAccount } from '../profile/useDeleteAccount';
import { CruiseMap } from './CruiseMap';
import './mypage.css';
import { cabin, certificates, MAX_STARS } from './rewards';
import { useMypageData } from './useMypage';

/** The courses whose counts the mypage lists (application-spec §2). */
const COUNTED_COURSES = ['season2', 'final_campaign', 'illustris'] as const;
/** Courses without a cruise map on the mypage (application-spec §2). */
const NO_MAP_COURSES: readonly string[] = ['illustris', 'final_campaign'];

function formatDate(iso: string) {
  return new Intl.DateTimeFormat(currentLocale(), { dateStyle: 'long' }).format(new Date(iso));
}

export function MypageDialog({ course }: { course: string }) {
  const { t } = useTranslation();
  const dialog = useDialog();
  const dialogs = useDialogs();
  const user = useSession().data?.current_user;
  const data = useMypageData(course);
  const remove = useDeleteAccount(() => dialog.resolve());
  const numbers = new Intl.NumberFormat(currentLocale());
  const courseName = useCourseName();

  const openProfile = () => {
    if (!user) return;
    void dialogs.open(<ProfileDialog user={user} />).catch((error: unknown) => {
      if (!(error instanceof DialogDismissed)) throw error;
    });
  };

  let content: React.ReactNode;
  if (data.isPending) content = <Spinner text={t('mypage.loading')} />;
  else if (data.isError || !data.records || !data.serverInfo || !data.campaigns)
    content = (
      <div role="alert">
        <p>{t('mypage.error')}</p>
        <button type="button" className="button" onClick={() => void data.refetch()}>
          {t('mypage.retry')}
        </button>
      </div>
    );
  else {
    const season2 = data.records.season2;
    const season2Total = areasOfCourse(data.serverInfo, 'season2');
    const { rank, stars } = cabin(season2.quests, season2Total);
    const finished = new Set(season2.quests.filter((quest) => quest.finished_at).map((quest) => quest.area_id)).size;
    const earned = certificates({
      quests: season2.quests,
      totalAreas: season2Total,
      levelStatuses: (data.season2Levels ?? []).map((level) => level.status),
    });
    const now = data.campaignsAt;
    content = (
      <>
        <section className="mypage-section" aria-labelledby="mypage-cabin">
          <h3 id="mypage-cabin">{t('mypage.cabin.heading')}</h3>
          <p className="mypage-cabin" data-testid="cabin-rank" data-rank={rank}>
            <span className="mypage-stars" role="img" aria-label={t('mypage.cabin.stars', { stars })}>
              {Array.from({ length: MAX_STARS }, (_, index) => (
                <Star key={index} size={20} aria-hidden="true" data-filled={index < stars || undefined} />
              ))}
            </span>
            <span>{rank === 0 ? t('mypage.cabin.delux') : t('mypage.cabin.rank', { rank })}</span>
          </p>
          <p className="mypage-note">
            {t('mypage.cabin.explain', { finished: numbers.format(finished), total: numbers.format(season2Total) })}
          </p>
        </section>
        <section className="mypage-section" aria-labelledby="mypage-counts">
          <h3 id="mypage-counts">{t('mypage.counts.heading')}</h3>
          <dl className="mypage-counts" data-testid="classified-counts">
            {COUNTED_COURSES.map((id) => (
              <div key={id}>
                <dt>{courseName(id)}</dt>
                <dd data-course={id}>{numbers.format(data.records![id].answers_count)}</dd>
              </div>
            ))}
          </dl>
        </section>
        {!NO_MAP_COURSES.includes(course) && data.courseLevels && (
          <section className="mypage-section" aria-labelledby="mypage-map">
            <h3 id="mypage-map">{t('mypage.map.heading', { course: courseName(course) })}</h3>
            <CruiseMap levels={data.courseLevels} courseName={courseName(course)} />
          </section>
        )}
        <section className="mypage-section" aria-labelledby="mypage-events">
          <h3 id="mypage-events">{t('mypage.events.heading')}</h3>
          {data.campaigns.length === 0 ? (
            <p>{t('mypage.events.empty')}</p>
          ) : (
            <ul className="mypage-events" data-testid="mypage-events">
              {data.campaigns.map((entry) => {
                const status = campaignStatus(entry, now);
                const { reached } = campaignProgress(entry);
                return (
                  <li key={entry.meta.id} data-status={status}>
                    <p className="mypage-event-name">
                      {entry.meta.name[currentLocale()]}{' '}
                      <span className="mypage-event-status">{t(`mypage.events.status.${status}`)}</span>
                    </p>
                    <p className="mypage-note">
                      {t('mypage.events.period', {
                        begin: formatDateTime(entry.meta.period_begin, currentLocale()),
                        end: formatDateTime(entry.meta.period_end, currentLocale()),
                      })}
                    </p>
                    <p className="mypage-note">{t('mypage.events.count', { count: numbers.format(entry.count) })}</p>
                    <ul className="mypage-medals">
                      {[...entry.meta.medals]
                        .sort((a, b) => a.count - b.count)
                        .map((medal, index) => (
                          <li key={medal.count} data-reached={index < reached || undefined}>
                            <img className="mypage-medal" src={skyDataUrl(medal.image)} alt="" width={24} height={24} />
                            {t('mypage.events.medal', { count: numbers.format(medal.count) })}:{' '}
                            {index < reached ? t('mypage.events.reached') : t('mypage.events.notReached')}
                          </li>
                        ))}
                    </ul>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        {earned.length > 0 && (
          <section className="mypage-section" aria-labelledby="mypage-certificates" data-testid="certificates">
            <h3 id="mypage-certificates">{t('mypage.certificates.heading')}</h3>
            <ul className="mypage-certificates">
              {earned.map((certificate) => (
                <li key={certificate.kind}>
                  <p className="mypage-certificate-title">
                    {t(`mypage.certificates.${certificate.kind}`, { course: courseName('season2') })}
                  </p>
                  <p className="mypage-note">
                    {t('mypage.certificates.completed', { date: formatDate(certificate.completedAt) })}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        )}
      </>
    );
  }

  return (
    <DialogFrame
      title={t('mypage.title')}
      actions={
        <button type="button" className="button primary" onClick={() => dialog.resolve()}>
          {t('common.close')}
        </button>
      }
    >
      <p className="mypage-greeting">{t('mypage.greeting', { nickname: user?.nickname ?? '' })}</p>
      <p className="mypage-account">
        <button type="button" className="button" onClick={openProfile} disabled={!user}>
          {t('mypage.account')}
        </button>
        <button type="button" className="button danger" onClick={() => void remove.ask()} disabled={remove.isPending}>
          {t('profile.deleteAccount')}
        </button>
      </p>
      {content}
    </DialogFrame>
  );
}
