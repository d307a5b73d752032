// The cruise on the main screen (application-spec §2, §4): the current quest's targets as
// markers, the camera jumping to the current target, the answer form when zoomed on it, the
// captain-note review, the answer queue (nothing lost), and what follows an answer: the
// remaining-count flash and a 2 s jump to the nearest unanswered target, or after the area the
// area-completed flash, a refresh and the level messages in the spec's order; what each answer
// earned (the medal and puzzle-piece messages) once the server has it, before the area's
// messages; the completion dialogs of a course with no galaxy left ('no available galaxy' while
// areas the volunteer has not done remain, retired by the course's rule). A target that the
// course's rule retired (the answer replies name them, docs/science.md) leaves the quest on
// screen at once, unless it is the one on screen; an area left with nothing to answer completes.
import { useQueryClient } from '@tanstack/react-query';
import { Sailboat } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { Answer, CurrentQuestResponse, Question } from '../../../../shared/api';
import { TargetLayer, type TargetMarker } from '../../../globe/layers/targets';
import { DialogDismissed, MessageDialog, useDialogs } from '../../components/dialogs';
import { useFlash } from '../../components/Flash';
import { useCameraState, useGlobe, useJumping } from '../../components/globe/GlobeContext';
import { useGlobeLayer } from '../../components/globe/useGlobeLayer';
import { useQuestRoute } from '../../components/globe/useQuestRoute';
import { namesView } from '../../components/globe/viewLink';
import { Spinner } from '../../components/Spinner';
import { GLOBE_JUMP_SPEED, OBJECTS_PER_PIECE } from '../../developerMode';
import { currentLocale } from '../../i18n';
import { CameraButton } from '../camera/CameraButton';
import { PassportButton } from '../passport/PassportButton';
import { SettingsButton } from '../settings/SettingsButton';
import { completesJigsaw } from '../souvenirs/jigsaw';
import { SouvenirsButton } from '../souvenirs/SouvenirsButton';
import { myRecordsQuery, piecesOf } from '../souvenirs/useSouvenirs';
import { MypageButton } from '../mypage/MypageButton';
import { AnswerForm } from './AnswerForm';
import { AreaWaiting } from './AreaWaiting';
import type { AnswerQueue, PendingAnswer } from './answerQueue';
import { afterSubmit, draftFor, expectedNext, nextInOrder, zoomedOn } from './answerSteps';
import { CaptainNoteDialog } from './CaptainNoteDialog';
import { CourseComplete } from './CourseComplete';
import { cabinRank, levelMessages } from './levelMessages';
import { answerRewards, courseCompletion, exhaustedMessage, type CompletionMessage } from './rewardMessages';
import { onAnswerSent } from './useAnswerQueue';
import { useCourseOverview } from './useCourseOverview';
import { useMarkers } from './useMarkers';
import { useShortcut } from '../../components/shortcuts';
import { firstUnanswered, targetView, type Quest } from './targetViews';
import { fetchLevel, fetchQuest, fetchServerInfo, questQueryKey, useLevels, useQuest } from './useQuest';

const DEGREE = Math.PI / 180;
/** §9 jump durations (ms), scaled by the globe jump speed (0.1 in developer mode). */
export const JUMP_MS = {
  nextGalaxy: 1000 * GLOBE_JUMP_SPEED,
  nearestUnanswered: 2000 * GLOBE_JUMP_SPEED,
  courseChange: 5000 * GLOBE_JUMP_SPEED,
  areaCompletion: 10_000 * GLOBE_JUMP_SPEED,
};
export const NEXT_GALAXY_KEY = 'n';

/** An answer submitted on this page whose write to the queue's store is under way. */
interface Storing {
  questId: number;
  answer: Answer;
}

/**
 * The saved answers of a quest: the server's, replaced by the queue's newer ones, and by those
 * submitted whose write to the store is still under way (newest last), so that an answer counts
 * from its submit on: the next submit's nearest unanswered galaxy, the remaining count and the
 * area's end never take it for unanswered, however fast the next galaxy is answered.
 */
function answersOf(quest: Quest, pending: readonly PendingAnswer[], storing: readonly Storing[]): Answer[] {
  const byObject = new Map(quest.answers.map((answer) => [answer.object_id, answer]));
  for (const entry of [...pending, ...storing])
    if (entry.questId === quest.id) byObject.set(entry.answer.object_id, entry.answer);
  return [...byObject.values()];
}

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
  const camera = useCameraState(100);
  const dialogs = useDialogs();
  const flash = useFlash();
  const queryClient = useQueryClient();
  const questQuery = useQuest(course);
  const levels = useLevels(course);
  // The chosen target, for the quest it was chosen in; a new quest starts at its first unanswered.
  const [chosen, setChosen] = useState<{ questId: number; objectId: number } | null>(null);
  const [completing, setCompleting] = useState(false);
  const shownQuest = useRef<number | null>(null);
  // Whether the main screen opened on a view (a shared link, kept through the login, or a reload:
  // the main screen keeps its view in the address); the camera follows the address (useLinkedView).
  const { search } = useLocation();
  const openedOnView = useRef(namesView(search));

  const [storing, setStoring] = useState<readonly Storing[]>([]);

  const data = questQuery.data;
  const quest = data && !data.no_more_available_objects ? data : null;
  // The course's areas (levels' number_of_areas), once its levels have come.
  const totalAreas = levels.data?.reduce((sum, level) => sum + level.number_of_areas, 0);
  const answers = useMemo(() => (quest ? answersOf(quest, pending, storing) : []), [quest, pending, storing]);
  const answered = useMemo(() => new Set(answers.map((answer) => answer.object_id)), [answers]);
  const pendingIds = useMemo(
    () => new Set(pending.filter((entry) => entry.questId === quest?.id).map((entry) => entry.answer.object_id)),
    [pending, quest?.id],
  );
  const currentId =
    quest && chosen?.questId === quest.id
      ? chosen.objectId
      : quest
        ? (firstUnanswered(quest)?.object_id ?? null)
        : null;
  const current = quest?.questions.find((question) => question.object_id === currentId) ?? null;
  // The target on screen, for the answer replies that drop retired targets (never this one).
  const onScreen = useRef<number | null>(null);
  useEffect(() => {
    onScreen.current = currentId;
  }, [currentId]);
  // Quests that lost targets to retirement, and the quest whose area is being completed.
  const pruned = useRef(new Set<number>());
  const completingQuest = useRef<number | null>(null);
  const questId = quest?.id;
  const setCurrentId = useCallback(
    (objectId: number) => {
      if (questId !== undefined) setChosen({ questId, objectId });
    },
    [questId],
  );

  const jumpTo = useCallback(
    (question: Question, durationMs: number) => {
      globe?.jumpTo(targetView(question), { duration: durationMs });
    },
    [globe],
  );

  // A new quest (first load, course change, next area): the camera goes to its first target.
  useEffect(() => {
    if (!quest || !globe || shownQuest.current === quest.id) return;
    shownQuest.current = quest.id;
    const first = firstUnanswered(quest);
    if (!first) return;
    // A screen opened on a view stays on it; otherwise the camera goes to the quest's first target.
    if (!openedOnView.current) jumpTo(first, jumpDurationRef.current);
    openedOnView.current = false;
    jumpDurationRef.current = JUMP_MS.courseChange;
  }, [quest, globe, jumpTo, jumpDurationRef]);

  // No galaxy left in the course: 'no available galaxy', or the course's completion (not again
  // when the volunteer has just completed it here: the area's messages said so).
  const completedHere = useRef<string | null>(null);
  // Primitive dependencies: a refetch of the same exhausted course does not say it again.
  const exhaustedCourse = data?.no_more_available_objects ? data.course_id : null;
  const exhaustedDone = data?.no_more_available_objects ? data.done_area_ids.length : 0;
  useEffect(() => {
    // Said once the course's levels tell how many areas it has.
    if (!exhaustedCourse || totalAreas === undefined) return;
    if (completedHere.current === exhaustedCourse) {
      completedHere.current = null;
      return;
    }
    const message = exhaustedMessage(exhaustedCourse, exhaustedDone, totalAreas);
    // Shown on opening an exhausted course, as the login's notifications are: one after another.
    void dialogs.open(<CompletionDialog message={message} />, { queued: true }).catch(ignoreDismissal);
  }, [exhaustedCourse, exhaustedDone, totalAreas, dialogs]);

  // What an answer earned, once the server has it (application-spec §4): the medal message after
  // a new record, the puzzle-piece message (and the puzzle-completed one) at a multiple of the
  // objects per piece. Shown one after another; the area's messages wait for them (rewardsShown).
  const rewardsShown = useRef<Promise<void>>(Promise.resolve());
  const lastCounts = useRef(new Map<number, number>());
  useEffect(
    () =>
      onAnswerSent((entry, response) => {
        const messages = answerRewards({
          response,
          previousCount: lastCounts.current.get(entry.questId) ?? null,
          objectsPerPiece: OBJECTS_PER_PIECE,
          now: new Date(),
        });
        lastCounts.current.set(entry.questId, response.answers_count);
        void queryClient.invalidateQueries({ queryKey: myRecordsQuery.queryKey });
        // Targets the course's rule retired since the quest was made leave it, but those answered
        // here and the one on screen (its answer is still taken).
        const retired = new Set(response.retired_object_ids ?? []);
        if (retired.size > 0)
          queryClient.setQueryData<CurrentQuestResponse>(questQueryKey(course), (old) => {
            if (!old || old.no_more_available_objects || old.id !== entry.questId) return old;
            const kept = new Set([...old.answers.map((answer) => answer.object_id), entry.answer.object_id]);
            const questions = old.questions.filter(
              (question) =>
                !retired.has(question.object_id) ||
                kept.has(question.object_id) ||
                question.object_id === onScreen.current,
            );
            if (questions.length === old.questions.length) return old;
            pruned.current.add(old.id);
            return { ...old, questions };
          });
        if (messages.length === 0) return;
        rewardsShown.current = rewardsShown.current.then(async () => {
          for (const message of messages) {
            const locale = currentLocale();
            const dialog =
              message.kind === 'medal' ? (
                <MessageDialog
                  title={t('cruise.rewards.medal.title', { campaign: message.campaign.name[locale] })}
                  message={t('cruise.rewards.medal.message', { message: message.medal.messages[locale] })}
                />
              ) : (
                <MessageDialog
                  title={t(`cruise.rewards.${message.kind}.title`)}
                  message={t(`cruise.rewards.${message.kind}.message`, { count: response.answers_count })}
                />
              );
            await dialogs.open(dialog).catch(ignoreDismissal);
            // Whether this piece completed a jigsaw needs every course's count: asked after the
            // piece's own message, so that the message shows as soon as the answer is sent.
            if (message.kind === 'piece') {
              const records = await queryClient.fetchQuery({ ...myRecordsQuery, staleTime: 0 }).catch(() => null);
              if (records && completesJigsaw(piecesOf(records)))
                await dialogs
                  .open(
                    <MessageDialog
                      title={t('cruise.rewards.puzzleCompleted.title')}
                      message={t('cruise.rewards.puzzleCompleted.message')}
                    />,
                  )
                  .catch(ignoreDismissal);
            }
          }
        });
      }),
    [dialogs, queryClient, t, course],
  );

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

  // The rudder: the next target in the quest's order, answered ones included, so that an answer
  // can be changed later by answering the same target again (the server replaces it).
  const nextGalaxy = useCallback(() => {
    const next = quest && !completing ? nextInOrder(quest.questions, currentId) : null;
    if (!next) return;
    setCurrentId(next.object_id);
    jumpTo(next, JUMP_MS.nextGalaxy);
  }, [quest, currentId, completing, jumpTo, setCurrentId]);

  useShortcut(NEXT_GALAXY_KEY, nextGalaxy);

  const completeArea = async (finished: Quest) => {
    if (completingQuest.current === finished.id) return;
    completingQuest.current = finished.id;
    setCompleting(true);
    try {
      if (queue.pending().length > 0) flash(t('cruise.savingArea'));
      await queue.whenIdle();
      await rewardsShown.current;
      flash(t('cruise.areaCompleted'));
      const [fresh, level, serverInfo] = await Promise.all([
        fetchQuest(course),
        fetchLevel(finished.level_id),
        fetchServerInfo(),
      ]);
      const totalAreas = Object.values(serverInfo.number_of_areas[course] ?? {}).reduce((sum, count) => sum + count, 0);
      const levelsNow = (await levels.refetch()).data ?? [];
      const stageName = (levelId: number | null) =>
        levelsNow.find((candidate) => candidate.id === levelId)?.name[currentLocale()] ?? '';
      const after = fresh.no_more_available_objects ? null : fresh;
      const messages = levelMessages({
        course,
        before: { level_id: finished.level_id, type: finished.type, done_area_ids: finished.done_area_ids },
        after,
        doneAfter: fresh.done_area_ids,
        levelAreaIds: level.areas.map((area) => area.id),
        totalAreas,
      });
      if (messages.includes('stamp')) void queryClient.invalidateQueries({ queryKey: myRecordsQuery.queryKey });
      if (!after) completedHere.current = course;
      for (const message of messages) {
        if (message === 'courseCompleted') {
          // Areas left undone were retired by the course's rule: no galaxy is left for now.
          const completion =
            fresh.done_area_ids.length < totalAreas ? ('noAvailable' as const) : courseCompletion(course);
          await dialogs.open(<CompletionDialog message={completion} />).catch(ignoreDismissal);
          continue;
        }
        const stage = message === 'stamp' ? level.name[currentLocale()] : stageName(after?.level_id ?? null);
        await dialogs
          .open(
            <MessageDialog
              title={t(`cruise.levels.${message}.title`)}
              message={t(`cruise.levels.${message}.message`, {
                stage,
                rank: String(cabinRank(fresh.done_area_ids.length, totalAreas)),
              })}
            />,
          )
          .catch(ignoreDismissal);
      }
      jumpDurationRef.current = JUMP_MS.areaCompletion;
      queryClient.setQueryData(questQueryKey(course), fresh);
    } finally {
      setCompleting(false);
    }
  };

  // A quest whose last unanswered targets were retired is done: its area completes as after an answer.
  useEffect(() => {
    if (!quest || completing || !pruned.current.has(quest.id) || completingQuest.current === quest.id) return;
    if (quest.questions.some((question) => !answered.has(question.object_id))) return;
    void completeArea(quest);
  });

  const submit = async (question: Question, answer: Answer): Promise<boolean> => {
    if (!quest) return false;
    if (question.captain_note) {
      const next = await dialogs
        .open<boolean>(<CaptainNoteDialog note={question.captain_note} answer={answer} />, { dismissable: false })
        .catch(() => false);
      if (!next) return false;
    }
    // The jump to the next target starts with the answer's write to the store, not after it (a
    // slow laptop's IndexedDB takes 100 ms and more): the queue's guarantee is that write, which
    // runs the same either way. Should it fail, the camera comes back, the form up for a retry.
    const stored = queue.submit(quest.id, answer);
    // Answered from now on, in the same render as the move to the next galaxy (whose form may be
    // answered before the write ends).
    const entry: Storing = { questId: quest.id, answer };
    setStoring((list) => [...list, entry]);
    // The view prefetched while the form was up (expectedNext): the same choice.
    const next = afterSubmit(quest.questions, answered, question);
    if (next) {
      setCurrentId(next.object_id);
      jumpTo(next, JUMP_MS.nearestUnanswered);
    }
    try {
      await stored;
    } catch (error) {
      if (next) {
        setCurrentId(question.object_id);
        jumpTo(question, JUMP_MS.nextGalaxy);
      }
      throw error;
    } finally {
      // In the queue's pending list now (or not stored at all).
      setStoring((list) => list.filter((candidate) => candidate !== entry));
    }
    // The quest as the volunteer now sees it: this answer replaces any earlier one.
    queryClient.setQueryData<CurrentQuestResponse>(questQueryKey(course), (old) =>
      old && !old.no_more_available_objects && old.id === quest.id
        ? { ...old, answers: [...old.answers.filter((saved) => saved.object_id !== answer.object_id), answer] }
        : old,
    );
    const nowAnswered = new Set(answered).add(answer.object_id);
    const remaining = quest.questions.filter((candidate) => !nowAnswered.has(candidate.object_id)).length;
    if (remaining > 0) flash(t('cruise.remaining', { count: remaining }));
    else void completeArea({ ...quest, answers: [...quest.answers, answer] });
    return true;
  };

  const sailing = useJumping();
  const view = camera ? { ra: camera.phi / DEGREE, dec: 90 - camera.theta / DEGREE, fovy: camera.fovy } : null;
  const showForm = !!current && !!view && !completing && zoomedOn(view, current);

  // While the form is up, the globe loads the views that submit and N jump to next, so that the
  // next galaxy is sharp when its jump ends (issue 31); none while there is no form.
  const ahead = useMemo(
    () => (showForm && quest && current ? expectedNext(quest.questions, answered, current).map(targetView) : []),
    [showForm, quest, answered, current],
  );
  // The globe ignores the same views given again (a re-render while the form stays up).
  useEffect(() => globe?.prefetch(ahead), [globe, ahead]);
  useEffect(() => () => globe?.prefetch([]), [globe]);

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
            onSubmit={(answer) => submit(current, answer)}
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

/** A completion dialog of §4 (completion.{course}, TNG, final campaign, no available galaxy). */
function CompletionDialog({ message }: { message: CompletionMessage }) {
  const { t } = useTranslation();
  const key = message.startsWith('complete.')
    ? `cruise.completion.${message.slice('complete.'.length)}`
    : `cruise.${message}`;
  return <MessageDialog title={t(`${key}.title`)} message={t(`${key}.message`)} />;
}

function ignoreDismissal(error: unknown) {
  if (!(error instanceof DialogDismissed)) throw error;
}
