// The ranking modal (application-spec §2, §7): period hourly, daily, weekly or monthly and course
// season2 or illustris, chosen with radio buttons; a table of the top volunteers with avatar (the
// Gravatar image of those who made it public, else a placeholder), nickname, count and a bar
// scaled to the leader's count; the user's own row highlighted. Loading and errors show in place.
// The open imported courses (issue 30) are offered after the spec's two.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RANKING_PERIODS, type RankingPeriod } from '../../../../shared/api';
import { useCourseName, useCourses } from '../../api/courses';
import { useSession } from '../../api/session';
import { Avatar } from '../../components/Avatar';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { Segmented } from '../../components/Segmented';
import { Spinner } from '../../components/Spinner';
import { currentLocale } from '../../i18n';
import './ranking.css';
import { RANKING_COURSES, useRanking } from './useRanking';

export function RankingDialog() {
  const { t } = useTranslation();
  const dialog = useDialog();
  const [period, setPeriod] = useState<RankingPeriod>('day');
  const [course, setCourse] = useState<string>('season2');
  const courseName = useCourseName();
  const imported = (useCourses().data ?? []).filter((entry) => entry.imported && entry.open).map((entry) => entry.id);
  const courses = [...RANKING_COURSES, ...imported];
  const ranking = useRanking(course, period);
  const userId = useSession().data?.current_user?.id;
  const entries = ranking.data ?? [];
  const top = Math.max(1, ...entries.map((entry) => entry.count));
  const numbers = new Intl.NumberFormat(currentLocale());

  return (
    <DialogFrame
      title={t('ranking.title')}
      actions={
        <button type="button" className="button primary" onClick={() => dialog.resolve()}>
          {t('common.close')}
        </button>
      }
    >
      <div className="ranking-controls">
        <Segmented
          legend={t('ranking.period')}
          name="ranking-period"
          options={RANKING_PERIODS}
          value={period}
          label={(option) => t(`ranking.periods.${option}`)}
          onChange={setPeriod}
        />
        <Segmented
          legend={t('ranking.course')}
          name="ranking-course"
          options={courses}
          value={course}
          label={courseName}
          onChange={setCourse}
        />
      </div>
      {ranking.isPending ? (
        <Spinner text={t('ranking.loading')} />
      ) : ranking.isError ? (
        <div className="ranking-error" role="alert">
          <p>{t('ranking.error')}</p>
          <button type="button" className="button" onClick={() => void ranking.refetch()}>
            {t('ranking.retry')}
          </button>
        </div>
      ) : entries.length === 0 ? (
        <p className="ranking-empty">{t('ranking.empty')}</p>
      ) : (
        <table className="ranking-table" data-testid="ranking-table" aria-busy={ranking.isFetching || undefined}>
          <caption>
            {t('ranking.caption', { course: courseName(course), period: t(`ranking.periods.${period}`) })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('ranking.rank')}</th>
              <th scope="col">{t('ranking.volunteer')}</th>
              <th scope="col">{t('ranking.count')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => {
              const own = entry.id === userId;
              return (
                <tr key={entry.id} className={own ? 'ranking-own' : undefined} aria-current={own || undefined}>
                  <td className="ranking-rank">{numbers.format(index + 1)}</td>
                  <td>
                    <span className="ranking-who">
                      <Avatar src={entry.public_avater} alt="" size={28} className="ranking-avatar" />
                      <span className="ranking-nickname">{entry.nickname}</span>
                      {own && <span className="ranking-you">{t('ranking.you')}</span>}
                    </span>
                  </td>
                  <td>
                    <span className="ranking-count">
                      <span className="ranking-bar" aria-hidden="true">
                        <span style={{ width: `${(100 * entry.count) / top}%` }} />
                      </span>
                      <span data-testid="ranking-count">{numbers.format(entry.count)}</span>
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </DialogFrame>
  );
}
