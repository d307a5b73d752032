// The deep-sky objects between the whole sky and a galaxy (issue 38): which objects of the SAC
// database (d3-celestial's dsos.20.json) the sky data holds, their sizes, position angles and
// kinds, and how bright the layer draws each (its mean surface brightness), checked against the
// catalogue's own numbers.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { vec3 } from 'gl-matrix';
import { drawnAxes, meanSurfaceBrightness, parseDeepSkyFile, type DeepSkyObject } from '../../core/deepSky';
import { deepSkyLevel, majorAxis } from '../../src/globe/layers/deep-sky';
import { deepSkyKind, dimensions, selectDeepSky } from '../../skydata/deep-sky';
import { skyVector } from '../../src/globe/visibility';

const source = createRequire(import.meta.url)('d3-celestial/data/dsos.20.json') as {
  features: Parameters<typeof selectDeepSky>[0][number][];
};
const objects = selectDeepSky(source.features);
const byId = new Map(objects.map((object) => [object.id, object]));
const named = (name: string) => objects.find((object) => object.name === name);

describe('the deep-sky objects of the sky data', () => {
  it('hold every Messier object the catalogue sizes, and the bright NGC/IC objects', () => {
    const messier = objects.filter((object) => /^M \d+$/.test(object.name ?? ''));
    expect(messier.length).toBeGreaterThanOrEqual(105);
    expect(objects.length).toBeGreaterThan(400);
    expect(objects.length).toBeLessThan(1500);
    expect(objects.filter((object) => !object.name?.startsWith('M ')).every((object) => object.magnitude <= 10)).toBe(
      true,
    );
  });

  it('draw M31 as a galaxy 189′ × 62′ at position angle 35°, M42 as an emission nebula, M45 as a reflection nebula', () => {
    const m31 = byId.get('NGC 224')!;
    expect(m31).toMatchObject({ name: 'M 31', kind: 'galaxy', major: 189.1, minor: 61.7, positionAngle: 35 });
    expect(m31.ra).toBeCloseTo(10.68, 1);
    expect(named('M 42')).toMatchObject({ kind: 'emission', major: 90, minor: 60 });
    expect(named('M 45')).toMatchObject({ kind: 'reflection' });
    expect(named('M 57')?.kind).toBe('planetary');
    expect(named('M 13')?.kind).toBe('globular');
  });

  it('hold the Magellanic Clouds', () => {
    expect(byId.get('PGC 17223')).toMatchObject({ name: 'LMC', kind: 'galaxy', major: 645, minor: 550 });
    expect(byId.get('NGC 292')).toMatchObject({ name: 'SMC', major: 309 });
  });

  it('leave out dark nebulae and galaxy clusters, and wide or faint open clusters', () => {
    expect(deepSkyKind('dn', '')).toBeNull();
    expect(deepSkyKind('gg', '')).toBeNull();
    expect(objects.some((object) => object.id === 'Cr 302' || object.id === 'Cr 173')).toBe(false);
    expect(dimensions('189.1x61.7')).toEqual([189.1, 61.7]);
    expect(dimensions('75')).toEqual([75, 75]);
    expect(dimensions('')).toBeNull();
  });

  it('draw an object without a known position angle as the circle of the same area', () => {
    const m42 = named('M 42')!;
    expect(m42.positionAngle).toBeNull();
    const axes = drawnAxes(m42);
    expect(axes.major).toBeCloseTo(Math.sqrt(90 * 60), 9);
    expect(axes.minor).toBe(axes.major);
  });

  it('refuse a file that is not a list of readable objects', () => {
    expect(() => parseDeepSkyFile({})).toThrow('no list of objects');
    expect(() => parseDeepSkyFile({ objects: [{ id: 'x', kind: 'comet' }] })).toThrow('is not readable');
    expect(parseDeepSkyFile({ objects: objects.slice(0, 3) })).toHaveLength(3);
  });
});

describe('the deep-sky layer’s light', () => {
  it('is the mean surface brightness: M31 about 22.2 mag/arcsec², brighter per area means brighter drawn', () => {
    const m31 = byId.get('NGC 224')!;
    expect(meanSurfaceBrightness(m31)).toBeCloseTo(22.2, 1);
    const m57 = named('M 57')!;
    expect(meanSurfaceBrightness(m57)).toBeLessThan(meanSurfaceBrightness(m31));
    expect(deepSkyLevel(m57)).toBeGreaterThan(deepSkyLevel(m31));
    const object: DeepSkyObject = { ...m31, magnitude: m31.magnitude + 2.5 };
    expect(deepSkyLevel(object)).toBeLessThan(deepSkyLevel(m31));
  });

  it('lies along the position angle: M31’s major axis points 35° east of north', () => {
    const centre = skyVector(10.68, 41.27);
    const axis = majorAxis(centre, 35);
    const north = vec3.normalize(vec3.create(), vec3.sub(vec3.create(), skyVector(10.68, 41.28), centre));
    const east = vec3.normalize(vec3.create(), vec3.sub(vec3.create(), skyVector(10.69, 41.27), centre));
    expect(Math.abs(vec3.dot(axis, centre))).toBeLessThan(1e-6);
    const angle = (Math.atan2(vec3.dot(axis, east), vec3.dot(axis, north)) * 180) / Math.PI;
    expect(angle).toBeCloseTo(35, 1);
  });
});
