// The cruise on the main screen (application-spec §2, §4), in three parts: its view here (the
// current quest's targets as markers, which the spacebar shows or hides, the finished course's
// levels in their place, the answer form when zoomed on the current target, the rudder and the
// screen's buttons), its navigation (useCruiseNavigation.ts: the current target, the camera's
// jumps to it, the views loaded ahead) and its answer submission (useAnswerSubmission.ts: the
// answer queue and what follows an answer, with what each answer earned in useAnswerRewards.tsx).
import { Sailboat } from 'lucide-react';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { TargetLayer, type TargetMarker } from '../../../globe/layers/targets';
import { areasOfCourse, useLevels, useQuest, useServerInfo } from '../../api/quests';
import { ignoreDismissal, MessageDialog, useDialogs } from '../../components/dialogs';
import { useGlobe } from '../../components/globe/GlobeContext';
import { useGlobeLayer } from '../../components/globe/useGlobeLayer';
import { useQuestRoute } from '../../components/globe/useQuestRoute';
import { Spinner } from '../../components/Spinner';
import { CameraButton } from '../camera/CameraButton';
import { MypageButton } from '../mypage/MypageButton';
import { PassportButton } from '../passport/PassportButton';
import { SettingsButton } from '../settings/SettingsButton';
import { SouvenirsButton } from '../souvenirs/SouvenirsButton';
import { AnswerForm } from './AnswerForm';
import { AreaWaiting } from './AreaWaiting';
import type { AnswerQueue, PendingAnswer } from './answerQueue';
import { draftFor } from './answerSteps';
import { CourseComplete } from './CourseComplete';
import { useAnswerSubmission } from './useAnswerSubmission';
import { useCourseOverview } from './useCourseOverview';
import { JUMP_MS, useCruiseNavigation } from './useCruiseNavigation';
import { useMarkers } from './useMarkers';

export function CruiseScreen({
  course,
  queue,
  pending,
  jumpDurationRef,
}: {
  course: string;
  queue: AnswerQueue;
  pending: readonly PendingAnswer[];
  /** Jump duration for the next quest shown (course change 5 s by default). */
  jumpDurationRef: React.MutableRefObject<number>;
}) {
  const { t } = useTranslation();
  const globe = useGlobe();
  const dialogs = useDialogs();
  const questQuery = useQuest(course);
  const levels = useLevels(course);
  const data = questQuery.data;
  const quest = data && !data.no_more_available_objects ? data : null;
  // The course's areas (GET /api/server_info: the levels list a long course's window only).
  const serverInfo = useServerInfo().data;
  const totalAreas = serverInfo && areasOfCourse(serverInfo, course);
  // The target on screen: the navigation keeps it, the answer replies that drop retired targets
  // never drop it.
  const onScreenRef = useRef<number | null>(null);
  const { answers, answered, pendingIds, completing, submit } = useAnswerSubmission({
    course,
    data,
    quest,
    levels,
    totalAreas,
    queue,
    pending,
    onScreenRef,
    jumpDurationRef,
  });
  const { currentId, current, goTo, nextGalaxy, showForm, sailing, openedOnView } = useCruiseNavigation({
    globe,
    quest,
    answered,
    completing,
    onScreenRef,
    jumpDurationRef,
  });

  // The markers: unanswered, answered and current targets; the spacebar shows or hides them.
  const warnMarkers = useCallback(() => {
    void dialogs
      .open(<MessageDialog title={t('cruise.markers.title')} message={t('cruise.markers.message')} />)
      .catch(ignoreDismissal);
  }, [dialogs, t]);
  const markers = useMarkers(warnMarkers);
  // No marker left to show: the finished course's levels instead, the camera out over them.
  useCourseOverview(globe, course, !!data?.no_more_available_objects, openedOnView, JUMP_MS.courseChange);
  useQuestRoute(globe, quest?.questions, markers.shown);
  const layer = useGlobeLayer(globe, () => new TargetLayer());
  useEffect(() => {
    const targets: TargetMarker[] = (quest?.questions ?? []).map((question) => ({
      ra: question.ra,
      dec: question.dec,
      state:
        question.object_id === currentId ? 'current' : answered.has(question.object_id) ? 'answered' : 'unanswered',
    }));
    layer.current?.update({ targets, shown: markers.shown, minFovy: markers.minFovy });
    globe?.requestFrame();
  }, [quest, currentId, answered, globe, layer, markers.shown, markers.minFovy]);

  if (questQuery.isPending) return <Spinner text={t('cruise.loadingQuest')} />;
  const index = current && quest ? quest.questions.indexOf(current) + 1 : 0;

  return (
    <>
      <div className="cruise-bottom">
        {/* In the bottom column rather than under the header, which wraps to any height. */}
        {quest && current && (
          <p className="cruise-target panel" data-testid="cruise-target">
            {t('cruise.target', { index, count: quest.questions.length })}
            {answered.has(current.object_id) && <> · {t('cruise.answered')}</>}
          </p>
        )}
        {data?.no_more_available_objects && (
          <CourseComplete course={course} doneAreas={data.done_area_ids.length} totalAreas={totalAreas} />
        )}
        {showForm && current && (
          <AnswerForm
            key={`${quest?.id}:${current.object_id}`}
            objectId={current.object_id}
            saved={answered.has(current.object_id) ? draftFor(current.object_id, answers) : null}
            pending={pendingIds.has(current.object_id)}
            sailing={sailing}
            onSubmit={(answer) => submit(current, answer, goTo)}
          />
        )}
        {quest && current && !showForm && !completing && <p className="cruise-hint panel">{t('cruise.zoomHint')}</p>}
        {completing && pendingIds.size > 0 && <AreaWaiting count={pendingIds.size} onRetry={() => queue.retryNow()} />}
        <div className="cruise-buttons">
          {!data?.no_more_available_objects && (
            <button
              type="button"
              className="button cruise-button"
              onClick={nextGalaxy}
              disabled={!quest || completing}
              aria-keyshortcuts="N"
            >
              <Sailboat aria-hidden="true" size={20} />
              <span>{t('cruise.nextGalaxy')}</span>
              <kbd>N</kbd>
            </button>
          )}
          <CameraButton />
          <MypageButton course={course} />
          <PassportButton course={course} />
          <SettingsButton />
          <SouvenirsButton />
        </div>
      </div>
    </>
  );
}
