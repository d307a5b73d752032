// The panel of a course with no galaxy left (issue 33): in place of the disabled "Next galaxy", it
// says that the course is complete (or that no galaxy is available now) and what to do next —
// choose another course — with a button to the header's course menu, so that the main screen
// never stands still without a word. The completion dialog of §4 still opens once; this panel
// stays for as long as the course is chosen. The completion dialogs themselves are here too.
import { useTranslation } from 'react-i18next';
import { MessageDialog } from '../../components/dialogs';
import { exhaustedMessage, type CompletionMessage } from './rewardMessages';

/** The strings' key of a completion message (completion.{course}, TNG, final campaign, no available galaxy). */
function completionKey(message: CompletionMessage): string {
  return message.startsWith('complete.')
    ? `cruise.completion.${message.slice('complete.'.length)}`
    : `cruise.${message}`;
}

/** A completion dialog of §4 (completion.{course}, TNG, final campaign, no available galaxy). */
export function CompletionDialog({ message }: { message: CompletionMessage }) {
  const { t } = useTranslation();
  const key = completionKey(message);
  return <MessageDialog title={t(`${key}.title`)} message={t(`${key}.message`)} />;
}

/** The header's course menu (home/HomePage.tsx), found by its class: the one select of its kind. */
function courseMenu(): HTMLSelectElement | null {
  return document.querySelector<HTMLSelectElement>('select.cruise-course');
}

export function CourseComplete({
  course,
  doneAreas,
  totalAreas,
}: {
  course: string;
  doneAreas: number;
  /** The course's areas, once its levels have come. */
  totalAreas?: number;
}) {
  const { t } = useTranslation();
  const key = completionKey(exhaustedMessage(course, doneAreas, totalAreas));
  const chooseCourse = () => {
    const menu = courseMenu();
    if (!menu) return;
    menu.focus();
    // Opens the list where the browser can; otherwise the focused menu takes the arrow keys.
    try {
      menu.showPicker();
    } catch {
      // Not allowed here (no user activation, or an older browser): the focus is enough.
    }
  };
  return (
    <section className="course-complete panel" aria-labelledby="course-complete-title" data-testid="course-complete">
      <h2 id="course-complete-title" className="course-complete-title">
        {t(`${key}.title`)}
      </h2>
      <p>{t('cruise.finished.next')}</p>
      <button type="button" className="button primary" onClick={chooseCourse}>
        {t('cruise.finished.choose')}
      </button>
    </section>
  );
}
