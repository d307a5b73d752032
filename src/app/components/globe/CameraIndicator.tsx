// The camera indicator (application-spec §2): right ascension, declination and field of view at
// the bottom right, updated with a 200 ms throttle.
import { useTranslation } from 'react-i18next';
import { formatDeclination, formatFieldOfView, formatRightAscension } from '../../../core/angles';
import { useCameraState } from './GlobeContext';

export function CameraIndicator() {
  const { t } = useTranslation();
  const camera = useCameraState(200);
  if (!camera) return null;
  return (
    <dl className="camera-indicator" aria-label={t('globe.indicator')} data-testid="camera-indicator">
      <dt>{t('globe.ra')}</dt>
      <dd>{formatRightAscension(camera.phi)}</dd>
      <dt>{t('globe.dec')}</dt>
      <dd>{formatDeclination(Math.PI / 2 - camera.theta)}</dd>
      <dt>{t('globe.fov')}</dt>
      <dd data-testid="camera-fov">{formatFieldOfView(camera.fovy)}</dd>
    </dl>
  );
}
