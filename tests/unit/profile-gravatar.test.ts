// The profile's gravatar rule (application-spec §5): public display only while use is on;
// turning use off clears it.
import { describe, expect, it } from 'vitest';
import { setGravatarPublic, setGravatarUse } from '../../src/app/features/profile/profileForm';

describe('profile gravatar choices', () => {
  it('clears public display when gravatar use is turned off', () => {
    expect(setGravatarUse({ gravatar_private: true, gravatar_public: true }, false)).toEqual({
      gravatar_private: false,
      gravatar_public: false,
    });
  });
  it('allows public display only while gravatar use is on', () => {
    expect(setGravatarPublic({ gravatar_private: false, gravatar_public: false }, true).gravatar_public).toBe(false);
    expect(setGravatarPublic({ gravatar_private: true, gravatar_public: false }, true).gravatar_public).toBe(true);
  });
  it('keeps public display when use is turned on again only if chosen again', () => {
    expect(setGravatarUse({ gravatar_private: false, gravatar_public: false }, true)).toEqual({
      gravatar_private: true,
      gravatar_public: false,
    });
  });
});
