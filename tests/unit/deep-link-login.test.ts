// A deep link through the login (application-spec §2: the originating location is kept; the
// login sends the volunteer to the recommended course): the link's view is carried onto the
// course's address, and the camera moves only when the address names another view than its own.
import { describe, expect, it } from 'vitest';
import { namesView, viewDiffers, viewFromHash, withLinkedView } from '../../src/app/components/globe/viewLink';
import { CAMERA_DEFAULTS, ProjectionMode, type CameraState } from '../../src/globe/camera';

const DEGREE = Math.PI / 180;

describe('a deep link through the login', () => {
  it('keeps the view of the link beside the recommended course', () => {
    expect(withLinkedView('/?course=final_campaign', '?ra=34.5&dec=-5.1&fov=0.5')).toBe(
      '/?course=final_campaign&ra=34.5&dec=-5.1&fov=0.5',
    );
    expect(withLinkedView('/?course=training', '?ra=10&dec=20&fov=30&mode=GNOMONIC&layers=grid,stars')).toBe(
      '/?course=training&ra=10&dec=20&fov=30&mode=GNOMONIC&layers=grid,stars',
    );
  });

  it('chooses the recommended course over the course the link named', () => {
    expect(withLinkedView('/?course=training', '?course=season2&ra=1&dec=2&fov=3')).toBe(
      '/?course=training&ra=1&dec=2&fov=3',
    );
  });

  it('leaves the course alone when the visitor came without a view', () => {
    expect(withLinkedView('/?course=training', '')).toBe('/?course=training');
    expect(withLinkedView('/?course=training', '?course=season2')).toBe('/?course=training');
    expect(withLinkedView('/?course=training', '?ra=abc&dec=2')).toBe('/?course=training');
  });

  it('names a view only with a right ascension', () => {
    expect(namesView('?ra=34.5&dec=-5.1&fov=0.5')).toBe(true);
    expect(namesView('#/?course=season2&ra=0')).toBe(true);
    expect(namesView('?course=season2')).toBe(false);
    expect(namesView('?fov=3')).toBe(false);
  });
});

describe('whether the address moves the camera', () => {
  const linked = viewFromHash('?ra=34.5&dec=-5.1&fov=0.5');
  const camera = (overrides: Partial<CameraState> = {}): CameraState => ({
    mode: CAMERA_DEFAULTS.mode,
    roll: 0,
    phi: 34.5 * DEGREE,
    theta: 95.1 * DEGREE,
    fovy: 0.5 * DEGREE,
    ...overrides,
  });

  it('stays when the camera already shows the view (a reload)', () => {
    expect(viewDiffers(camera(), linked)).toBe(false);
    // The address carries five decimals of a degree and four digits of the field of view.
    expect(viewDiffers(camera({ phi: 34.500004 * DEGREE, fovy: 0.50004 * DEGREE }), linked)).toBe(false);
    expect(viewDiffers(camera({ phi: (34.5 + 360) * DEGREE }), linked)).toBe(false);
  });

  it('moves for another place, field of view or projection', () => {
    expect(viewDiffers(camera({ phi: 35 * DEGREE }), linked)).toBe(true);
    expect(viewDiffers(camera({ theta: 90 * DEGREE }), linked)).toBe(true);
    expect(viewDiffers(camera({ fovy: 60 * DEGREE }), linked)).toBe(true);
    expect(
      viewDiffers(camera({ mode: ProjectionMode.STEREOGRAPHIC }), { ...linked, mode: ProjectionMode.GNOMONIC }),
    ).toBe(true);
  });
});
