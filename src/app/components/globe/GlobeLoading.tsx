// The status that stands where the camera indicator will be while the sky is on its way: which
// step the page is at (the session, the globe's code, the globe), a bar of the steps done, and
// the files loaded so far with their size. Everything it shows is measured (loadingSteps.ts,
// useLoadedFiles.ts), so a slow machine or network reads as progress rather than a frozen line.
import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../i18n';
import { Spinner } from '../Spinner';
import { formatBytes, loadingProgress, type LoadingStep } from './loadingSteps';
import { useLoadedFiles } from './useLoadedFiles';

export function GlobeLoading({ done }: { done: Record<LoadingStep, boolean> }) {
  const { t } = useTranslation();
  const progress = loadingProgress(done);
  const files = useLoadedFiles(true);
  return (
    <div className="globe-loading" data-testid="globe-loading">
      <Spinner text={t('globe.loading')} />
      <progress
        className="globe-loading-bar"
        max={progress.total}
        value={progress.done}
        aria-label={t('globe.loadingSteps', { done: progress.done, total: progress.total })}
      />
      <ol className="globe-loading-steps">
        {progress.steps.map(({ step, state }) => (
          <li key={step} data-state={state} aria-current={state === 'current' ? 'step' : undefined}>
            {state === 'done' ? <Check aria-hidden="true" size={12} /> : <span className="globe-loading-dot" />}
            {t(`globe.loadingStep.${step}`)}
          </li>
        ))}
      </ol>
      <p className="globe-loading-files" data-testid="loaded-files">
        {t('globe.loadedFiles', { count: files.count, size: formatBytes(files.bytes, currentLocale()) })}
      </p>
    </div>
  );
}
