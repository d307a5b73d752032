// What the service worker keeps and where (src/service-worker/caches.ts): the sky's files by
// their place in the data repository (viewer-spec §7), on this site or on DATA_HOST, a HiPS by its
// layout on any host; of /api/ only the offline start's GETs (application-spec §7).
import { describe, expect, it } from 'vitest';
import { describedFolder, isOfflineStartCall, skyFileKind } from '../../src/service-worker/caches';

const kind = (url: string) => skyFileKind(new URL(url));

describe('the sky files, by kind', () => {
  it('the star catalogue and the Milky Way are the backdrop, on this site or on DATA_HOST', () => {
    for (const host of ['http://127.0.0.1:8080', 'https://sky.example.org', 'https://cdn.example.org/group'])
      for (const file of ['hipparcos-catalog/stars.mag-lt-6.f32.gz', 'milkyway/px.png', 'milkyway/images-512/nz.png'])
        expect(kind(`${host}/stellar-globe/static/${file}`)).toBe('backdrop');
  });

  it("the HiPS's minimum order (3) and its Allsky image are the backdrop, deeper orders tiles, on any host", () => {
    expect(kind('http://127.0.0.1:8080/stellar-globe/static/hips/sky/Norder3/Dir0/Npix42.png')).toBe('backdrop');
    expect(kind('http://127.0.0.1:8080/stellar-globe/static/hips/sky/Norder3/Allsky.png')).toBe('backdrop');
    expect(kind('http://127.0.0.1:8080/stellar-globe/static/hips/sky/Norder2/Dir0/Npix7.fits')).toBe('backdrop');
    expect(kind('http://127.0.0.1:8080/stellar-globe/static/hips/sky/Norder4/Dir0/Npix170.png')).toBe('tile');
    expect(kind('https://alasky.example.org/DSS2/Norder9/Dir10000/Npix12345.jpg')).toBe('tile');
    expect(kind('https://alasky.example.org/DSS2/properties')).toBe('metadata');
  });

  it("metadata: every JSON file of the repository and a HiPS's properties", () => {
    for (const file of ['wide/meta.json', 'wide/area.json', 'hipparcos-catalog/index.json', 'credits.json'])
      expect(kind(`http://127.0.0.1:8080/stellar-globe/static/${file}`)).toBe('metadata');
    expect(kind('http://127.0.0.1:8080/stellar-globe/static/hips/sky/properties')).toBe('metadata');
  });

  it('survey tiles, pretty pictures and the dialogs’ images are tiles', () => {
    for (const file of [
      'wide/HSC-I/400/0/3/3.png',
      'dud/HSC-G/100/2/0/0.png',
      'pretty_picture/m31/g/2/0/0.fits',
      'captain_notes/43000000101000.png',
      'passport/stamp-1.svg',
    ])
      expect(kind(`http://127.0.0.1:8080/stellar-globe/static/${file}`)).toBe('tile');
  });

  it('nothing else: the app, the API, other sites', () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://127.0.0.1:8080/assets/index-B_1OPnnp.js',
      'http://127.0.0.1:8080/api/courses',
      'https://www.gravatar.com/avatar/00000000000000000000000000000000',
    ])
      expect(kind(url)).toBeNull();
  });

  it('a metadata file describes the folder it is in', () => {
    expect(describedFolder('http://h/stellar-globe/static/wide/meta.json')).toBe('http://h/stellar-globe/static/wide/');
    expect(describedFolder('http://h/stellar-globe/static/hips/sky/properties')).toBe(
      'http://h/stellar-globe/static/hips/sky/',
    );
  });
});

describe('the offline start’s calls, and no other of /api/', () => {
  it('the session, the courses, the levels and a current quest', () => {
    for (const path of ['/api/session', '/api/courses', '/api/levels', '/api/courses/training/quests/current'])
      expect(isOfflineStartCall(path)).toBe(true);
  });

  it('not the rest: answers, records, notifications, rankings, administration', () => {
    for (const path of [
      '/api/quests/12/answers',
      '/api/my_records',
      '/api/notifications',
      '/api/rankings/day',
      '/api/levels/3',
      '/api/server_info',
      '/api/admin/courses',
      '/api/courses/training/quests',
      '/api/session/extra',
    ])
      expect(isOfflineStartCall(path)).toBe(false);
  });
});
