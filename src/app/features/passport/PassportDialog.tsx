// The passport (application-spec §2): tabs season2, final_campaign and illustris, each a page of
// the course's stages with a stamp on every completed one (stamps.ts), dated, the stage being
// cruised marked as the current one, and an empty slot for the others.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import type { MyRecordsResponse } from '../../../../shared/api';
import { PASSPORT_COURSES } from '../../../../shared/rewards';
import { skyDataUrl } from '../../api/dataRepository';
import { request } from '../../api/request';
import { DialogFrame, useDialog } from '../../components/dialogs';
import { Spinner } from '../../components/Spinner';
import { currentLocale } from '../../i18n';
import { useLevels } from '../../api/quests';
import './passport.css';
import { stampSlots } from './stamps';

type PassportCourse = (typeof PASSPORT_COURSES)[number];

function isPassportCourse(course: string): course is PassportCourse {
  return (PASSPORT_COURSES as readonly string[]).includes(course);
}

export function PassportDialog({ course }: { course: string }) {
  const { t } = useTranslation();
  const dialog = useDialog();
  const [selected, setSelected] = useState<PassportCourse>(isPassportCourse(course) ? course : 'season2');
  return (
    <DialogFrame
      title={t('passport.title')}
      actions={
        <button type="button" className="button primary" onClick={() => dialog.resolve()}>
          {t('common.close')}
        </button>
      }
    >
      <Tabs
        selectedKey={selected}
        onSelectionChange={(key) => setSelected(key as PassportCourse)}
        className="passport-tabs"
      >
        <TabList aria-label={t('passport.courses')} className="passport-tablist">
          {PASSPORT_COURSES.map((id) => (
            <Tab key={id} id={id} className="passport-tab">
              {t(`home.courses.${id}`)}
            </Tab>
          ))}
        </TabList>
        {PASSPORT_COURSES.map((id) => (
          <TabPanel key={id} id={id} className="passport-page">
            <PassportPage course={id} />
          </TabPanel>
        ))}
      </Tabs>
    </DialogFrame>
  );
}

function PassportPage({ course }: { course: PassportCourse }) {
  const { t } = useTranslation();
  const levels = useLevels(course);
  const records = useQuery({
    queryKey: ['my_records'],
    queryFn: ({ signal }) => request<MyRecordsResponse>('get', '/api/my_records', undefined, { signal }),
  });
  if (levels.isPending || records.isPending) return <Spinner text={t('passport.loading')} />;
  if (!levels.data || !records.data)
    return (
      <div role="alert">
        <p>{t('passport.error')}</p>
        <button
          type="button"
          className="button"
          onClick={() => void Promise.all([levels.refetch(), records.refetch()])}
        >
          {t('passport.retry')}
        </button>
      </div>
    );
  const slots = stampSlots(levels.data, records.data[course].quests);
  if (slots.length === 0) return <p>{t('passport.empty')}</p>;
  const locale = currentLocale();
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  return (
    <>
      <p className="passport-count" data-testid="passport-count">
        {t('passport.count', { stamped: slots.filter((slot) => slot.image).length, total: slots.length })}
      </p>
      <ul className="passport-stamps">
        {slots.map(({ level, image, date, state }) => {
          const stage = level.name[locale];
          return (
            <li key={level.id} className="passport-slot" data-state={state} data-testid="passport-slot">
              {image ? (
                <img
                  src={skyDataUrl(image)}
                  alt={t('passport.stampAlt', { stage })}
                  width={96}
                  height={96}
                  data-testid="passport-stamp"
                />
              ) : (
                <span className="passport-empty" aria-hidden="true" />
              )}
              <span className="passport-stage">{stage}</span>
              <span className="passport-date">
                {state === 'stamped'
                  ? date
                    ? t('passport.completedOn', { date: dates.format(new Date(date)) })
                    : ''
                  : state === 'current'
                    ? t('passport.current')
                    : t('passport.notYet')}
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}
