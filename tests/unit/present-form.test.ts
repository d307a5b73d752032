// The gift form's rules (application-spec §2, §5, §8): the address order per language, the
// required fields with 'Cannot be blank', the privacy box, the count against min_galaxies and
// the window of the campaign.
import { describe, expect, it } from 'vitest';
import {
  addressOrder,
  formFromStat,
  isWindowOpen,
  meetsRequirement,
  presentFormErrors,
} from '../../src/app/features/present/presentForm';
import { MESSAGES } from '../../shared/validation';

const window = { opens_at: '2025-02-07T00:00:00.000Z', deadline: '2025-02-14T14:59:59.000Z' };

describe('gift form', () => {
  it('orders the address fields as the spec does for Japanese and for other languages', () => {
    expect(addressOrder('ja')).toEqual(['country_code', 'zip_code', 'address1', 'address2', 'address3']);
    expect(addressOrder('en')).toEqual(['address1', 'address3', 'address2', 'zip_code', 'country_code']);
  });

  it('needs name, country, zip code, address1 and the privacy box; address2, address3 and message are optional', () => {
    const errors = presentFormErrors(formFromStat(undefined));
    expect(Object.keys(errors).sort()).toEqual(['address1', 'country_code', 'name', 'privacy', 'zip_code']);
    expect(errors.name).toEqual([MESSAGES.blank]);
    expect(errors.privacy).toEqual(['checkTheBox']);
    const filled = {
      ...formFromStat(undefined),
      name: 'Hoshi Taro',
      country_code: '392',
      zip_code: '181-8588',
      address1: '2-21-1 Osawa, Mitaka',
      privacy: true,
    };
    expect(presentFormErrors(filled)).toEqual({});
    expect(presentFormErrors({ ...filled, name: '   ' })).toEqual({ name: [MESSAGES.blank] });
  });

  it('opens an existing application filled in and agreed', () => {
    const form = formFromStat({
      count: 5,
      min_galaxies: 3,
      ...window,
      application: {
        name: 'A',
        country_code: -1,
        zip_code: 'Z',
        address1: '1',
        address2: '',
        address3: '',
        message: '',
      },
    });
    expect(form.country_code).toBe('-1');
    expect(form.privacy).toBe(true);
    expect(presentFormErrors(form)).toEqual({});
  });

  it('compares the classified count with min_galaxies', () => {
    expect(meetsRequirement({ count: 999, min_galaxies: 1000, ...window })).toBe(false);
    expect(meetsRequirement({ count: 1000, min_galaxies: 1000, ...window })).toBe(true);
  });

  it('is open from the opening to the deadline, both inclusive', () => {
    expect(isWindowOpen(window, new Date('2025-02-06T23:59:59.999Z'))).toBe(false);
    expect(isWindowOpen(window, new Date(window.opens_at))).toBe(true);
    expect(isWindowOpen(window, new Date(window.deadline))).toBe(true);
    expect(isWindowOpen(window, new Date('2025-02-14T15:00:00.000Z'))).toBe(false);
  });
});
