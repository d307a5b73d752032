// The camera indicator (application-spec §2): right ascension, declination and field of view at
// the bottom right, updated with a 200 ms throttle; beside it the button that copies a link to
// this view (loaded with the globe's code, once the globe is there).
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDeclination, formatFieldOfView, formatRightAscension } from '../../../../core/angles';
import { viewCentre } from '../../../globe/zenith';
import { useCameraState, useGlobe } from './GlobeContext';

const CopyViewLink = lazy(async () => ({ default: (await import('./CopyViewLink')).CopyViewLink }));

export function CameraIndicator() {
  const { t } = useTranslation();
  const globe = useGlobe();
  const camera = useCameraState(200);
  if (!globe || !camera) return null;
  // theta/phi are in the camera's frame; the indicator shows where that is on the sky.
  const { ra, dec } = viewCentre(camera);
  return (
    <div className="camera-corner">
      <Suspense fallback={null}>
        <CopyViewLink globe={globe} />
      </Suspense>
      <dl className="camera-indicator" aria-label={t('globe.indicator')} data-testid="camera-indicator">
        <dt>{t('globe.ra')}</dt>
        <dd>{formatRightAscension(ra)}</dd>
        <dt>{t('globe.dec')}</dt>
        <dd>{formatDeclination(dec)}</dd>
        <dt>{t('globe.fov')}</dt>
        <dd data-testid="camera-fov">{formatFieldOfView(camera.fovy)}</dd>
      </dl>
    </div>
  );
}
