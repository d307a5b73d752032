// The chosen course's imagery on the globe (issue 30): an imported course's HiPS is the course's
// survey layer (GlobeView's 'survey' HipsLayer, drawn at every zoom); the five courses' surveys
// are the sky's own, so for them the layer is emptied. A `hips_url` that is no URL is a folder in
// the sky data repository, resolved as the sky's HiPS is ({dataRepository}, or DATA_HOST). A HiPS
// of FITS tiles comes with its colour settings (`hips_colour`), which the layer stretches them by.
import { useEffect } from 'react';
import { HipsLayer } from '../../../globe/layers/hips';
import { useCourses } from '../../api/courses';
import { skyDataUrl } from '../../api/dataRepository';
import { useGlobe } from './GlobeContext';

/** The HiPS folder (no trailing '/', as HipsLayer's baseUrl) of a course's `hips_url`. */
export function courseHipsBase(hipsUrl: string): string {
  const folder = /^https?:\/\//i.test(hipsUrl) ? hipsUrl : skyDataUrl(hipsUrl.replace(/^\/+/, ''));
  return folder.replace(/\/+$/, '');
}

export function useCourseImagery(course: string): void {
  const globe = useGlobe();
  const entry = useCourses().data?.find((candidate) => candidate.id === course);
  const hipsUrl = entry?.hips_url;
  const colour = entry?.hips_colour ?? null;
  useEffect(() => {
    if (!globe) return;
    const baseUrl = hipsUrl ? courseHipsBase(hipsUrl) : '';
    for (const layer of globe.layersNamed('survey')) if (layer instanceof HipsLayer) layer.update({ baseUrl, colour });
  }, [globe, hipsUrl, colour]);
}
