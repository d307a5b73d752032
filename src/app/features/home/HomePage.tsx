// The main screen (application-spec §2): the header (stage name, course selector, the campaign
// progress bars at the top right, links for messages, the how-to-operate guide, mission, tips,
// ranking, the account's links and log out, collapsing into a menu with home on narrow screens),
// the cruise (markers, answer form, bottom buttons) and, from the shell, the camera indicator.
// Until the quest arrives the cruise is a spinner.
import { useQueryClient } from '@tanstack/react-query';
import { BookOpen, Lightbulb, LogOut, Mail, Menu, Target, Trophy } from 'lucide-react';
import { useRef, useState, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { NEW_GAME_COURSES, type CourseId } from '../../../../shared/enums';
import { sailableCourses, useCourseName, useCourses } from '../../api/courses';
import { useLogout } from '../../api/logout';
import { request } from '../../api/request';
import { useSession } from '../../api/session';
import { DialogDismissed, useDialogs } from '../../components/dialogs';
import { Spinner } from '../../components/Spinner';
import { useLinkedView } from '../../components/globe/useLinkedView';
import { currentLocale } from '../../i18n';
import { ChooseGameDialog } from '../cruise/ChooseGameDialog';
import { CruiseScreen } from '../cruise/CruiseScreen';
import { JUMP_MS } from '../cruise/useCruiseNavigation';
import '../cruise/cruise.css';
import { questQueryKey, useLevels, useQuest } from '../../api/quests';
import { useAnswerQueue } from '../cruise/useAnswerQueue';
import { useCourseImagery } from '../../components/globe/useCourseImagery';
import { AdminMenuSlot } from '../admin/adminMenuSlot';
import { CampaignBars } from '../campaigns/CampaignBars';
import { GuideDialog } from '../guide/GuideDialog';
import { NotificationsDialog } from '../notifications/NotificationsDialog';
import { useNotificationList } from '../../api/notifications';
import { AccountLinks } from '../profile/AccountLinks';
import { RankingDialog } from '../ranking/RankingDialog';
import './home.css';
import { useSelectedCourse } from './course';

export function HomePage() {
  const { t } = useTranslation();
  const course = useSelectedCourse();
  // An imported course in the address waits for the list of courses (course.ts).
  if (course === null) return <Spinner text={t('cruise.loadingQuest')} />;
  return <CourseHome course={course} />;
}

function CourseHome({ course }: { course: string }) {
  const { t } = useTranslation();
  const courseName = useCourseName();
  const courses = sailableCourses(useCourses().data);
  useCourseImagery(course);
  const [, setSearchParams] = useSearchParams();
  const logout = useLogout();
  const dialogs = useDialogs();
  const queryClient = useQueryClient();
  const userId = useSession().data?.current_user?.id ?? null;
  const { queue, pending } = useAnswerQueue(userId);
  const quest = useQuest(course).data;
  const levels = useLevels(course).data;
  const [menuOpen, setMenuOpen] = useState(false);
  const notifications = useNotificationList();
  // The camera goes to the view the address names (a deep link kept through the login, a new hash).
  useLinkedView();
  const unread = (notifications.data ?? []).filter((entry) => !entry.read).length;
  // The page's first quest is shown at once (UI.md: answering within seconds of opening the
  // site); later quests come with the jumps of §9.
  const jumpDurationRef = useRef(0);
  const stage = levels?.find((level) => level.id === quest?.level_id)?.name[currentLocale()];

  const changeCourse = async (next: string) => {
    if ((NEW_GAME_COURSES as readonly string[]).includes(next)) {
      let choice: 'continue' | 'new';
      try {
        choice = await dialogs.open<'continue' | 'new'>(<ChooseGameDialog course={next as CourseId} />);
      } catch (error) {
        if (error instanceof DialogDismissed) return;
        throw error;
      }
      if (choice === 'new') await request('delete', '/api/courses/{course_id}/quests', { course_id: next });
    }
    // The current quest is fetched again after a change (§4).
    await queryClient.resetQueries({ queryKey: questQueryKey(next) });
    jumpDurationRef.current = JUMP_MS.courseChange;
    setSearchParams({ course: next });
  };

  // A header link opens its dialog and closes the narrow screen's menu.
  const openDialog = (content: ReactElement, className?: string) => {
    setMenuOpen(false);
    void dialogs.open(content, { className }).catch((error: unknown) => {
      if (!(error instanceof DialogDismissed)) throw error;
    });
  };
  const headerButton = (label: string, icon: ReactNode, onClick: () => void, testId: string, name = label) => (
    <button
      type="button"
      className="button header-link"
      onClick={onClick}
      data-testid={testId}
      aria-label={name === label ? undefined : name}
    >
      {icon}
      <span>{label}</span>
    </button>
  );

  return (
    <main className="home">
      <header className="home-header cruise-header panel" data-menu-open={menuOpen || undefined}>
        <div className="cruise-header-start">
          <span className="cruise-stage" data-testid="stage-name">
            {stage ? t('cruise.stage', { name: stage }) : t('home.course', { name: courseName(course) })}
          </span>
          <select
            className="cruise-course"
            aria-label={t('cruise.courseSelect')}
            data-testid="course-select"
            value={course}
            onChange={(event) => void changeCourse(event.target.value)}
          >
            {courses.map((id) => (
              <option key={id} value={id}>
                {courseName(id)}
              </option>
            ))}
          </select>
          <span className="cruise-saving" role="status" data-testid="pending-answers">
            {pending.length > 0 ? t('cruise.pending', { count: pending.length }) : ''}
          </span>
        </div>
        <CampaignBars />
        <button
          type="button"
          className="button cruise-menu-button"
          aria-expanded={menuOpen}
          aria-controls="cruise-links"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Menu aria-hidden="true" size={18} />
          <span>{t('cruise.menu')}</span>
        </button>
        <div id="cruise-links" className="cruise-links" data-open={menuOpen || undefined}>
          <Link to="/" className="link cruise-home-link" onClick={() => setMenuOpen(false)}>
            {t('cruise.home')}
          </Link>
          {headerButton(
            t('notifications.link'),
            <span className="header-icon">
              <Mail aria-hidden="true" size={16} />
              {unread > 0 && (
                <span className="header-badge" aria-hidden="true" data-testid="unread-count">
                  {unread}
                </span>
              )}
            </span>,
            () => openDialog(<NotificationsDialog />),
            'messages-link',
            unread > 0 ? t('notifications.linkUnread', { count: unread }) : t('notifications.link'),
          )}
          {headerButton(
            t('guide.howTo.link'),
            <BookOpen aria-hidden="true" size={16} />,
            () => openDialog(<GuideDialog topic="howTo" />),
            'how-to-link',
          )}
          {headerButton(
            t('guide.mission.link'),
            <Target aria-hidden="true" size={16} />,
            () => openDialog(<GuideDialog topic="mission" />),
            'mission-link',
          )}
          {headerButton(
            t('guide.tips.link'),
            <Lightbulb aria-hidden="true" size={16} />,
            () => openDialog(<GuideDialog topic="tips" />),
            'tips-link',
          )}
          {headerButton(
            t('ranking.link'),
            <Trophy aria-hidden="true" size={16} />,
            () => openDialog(<RankingDialog />, 'wide'),
            'ranking-link',
          )}
          <AccountLinks />
          <button
            type="button"
            className="button header-link"
            onClick={() => logout.mutate()}
            disabled={logout.isPending}
          >
            <LogOut aria-hidden="true" size={16} />
            <span>{t('common.logout')}</span>
          </button>
          <AdminMenuSlot />
        </div>
      </header>
      {queue && <CruiseScreen course={course} queue={queue} pending={pending} jumpDurationRef={jumpDurationRef} />}
    </main>
  );
}
