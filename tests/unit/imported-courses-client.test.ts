// The browser's side of imported courses (issue 30): which courses the course menu offers, what
// an imported course says when it is complete, and that a course's HiPS is drawn at every zoom
// where the sky's HiPS fades out.
import { describe, expect, it } from 'vitest';
import type { CourseEntry } from '../../shared/courses';
import { COURSE_IDS } from '../../shared/enums';
import { sailableCourses } from '../../src/app/api/courses';
import { courseCompletion, exhaustedMessage } from '../../src/app/features/cruise/rewardMessages';
import { APPLICATION_HIPS_OPTIONS, COURSE_HIPS_OPTIONS } from '../../src/app/components/globe/presets';
import { HipsLayer } from '../../src/globe/layers/hips';
import { hipsVisibility } from '../../src/globe/layers/hips-orders';

const name = { en: 'Low surface brightness dwarfs', ja: '低表面輝度矮小銀河' };

describe('the course menu', () => {
  it('offers the five courses, then the open imported ones in the server’s order; closed ones not', () => {
    const courses: CourseEntry[] = [
      ...COURSE_IDS.map((id) => ({ id, imported: false, open: true })),
      { id: 'lsb-dwarfs', name, imported: true, open: true, hips_url: 'imports/lsb-dwarfs/hips/' },
      { id: 'closed-one', name, imported: true, open: false },
      { id: 'rings', name, imported: true, open: true },
    ];
    expect(sailableCourses(courses)).toEqual([...COURSE_IDS, 'lsb-dwarfs', 'rings']);
  });

  it('offers the five before the list has arrived', () => {
    expect(sailableCourses(undefined)).toEqual([...COURSE_IDS]);
  });
});

describe('an imported course complete', () => {
  it('has the imported courses’ completion dialog; the five keep their own', () => {
    expect(courseCompletion('lsb-dwarfs')).toBe('complete.imported');
    expect(exhaustedMessage('lsb-dwarfs', 3)).toBe('complete.imported');
    expect(exhaustedMessage('lsb-dwarfs', 0)).toBe('noAvailable');
    expect(courseCompletion('season2')).toBe('complete.season2');
  });
});

describe("a course's HiPS at the answer form's zoom", () => {
  it('stays drawn however many screen pixels a texel spans, where the sky’s HiPS has faded out', () => {
    for (const texelPixels of [0.5, 2, 100, 1e6])
      expect(hipsVisibility(texelPixels, COURSE_HIPS_OPTIONS.maxTexelPixels)).toBe(1);
    expect(hipsVisibility(100, APPLICATION_HIPS_OPTIONS.maxTexelPixels)).toBe(0);
  });
});

describe("a course's HiPS layer", () => {
  it('is a survey layer with no share of the backdrop light; the sky’s HiPS is a backdrop', () => {
    const course = new HipsLayer({ ...COURSE_HIPS_OPTIONS, baseUrl: '' }, 'survey');
    expect(course.name).toBe('survey');
    expect(course.backdrop).toBeUndefined();
    const sky = new HipsLayer({ ...APPLICATION_HIPS_OPTIONS, baseUrl: '/hips/sky' });
    expect(sky.name).toBe('hips');
    expect(sky.backdrop).toBeDefined();
  });
});
