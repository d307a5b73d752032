// English strings. Keys group by feature; ja.ts must have the same keys (tests check it).
export const en = {
  common: {
    loading: 'Loading',
    loadingSession: 'Loading session...',
    language: 'Language',
    appName: 'Galaxy Cruise',
  },
  login: {
    title: 'Log in',
    intro:
      'Sail the sky and classify galaxies from Subaru Hyper Suprime-Cam survey images. Your answers help astronomers study how galaxies interact and evolve.',
    email: 'E-mail',
    password: 'Password',
    submit: 'Log in',
    forgotPassword: 'Forgot your password?',
    signUp: 'Sign up for free',
    season1Note: 'Accounts of season 1 (ended 25 April 2022) keep working: log in with the same e-mail address.',
    contact: 'Contact form',
    credits: 'Credits',
    unauthorized: 'E-mail or password is incorrect.',
  },
  globe: {
    label: 'Sky globe: drag or use the arrow keys to look around, the wheel or + and − to zoom',
    indicator: 'Camera',
    ra: 'RA',
    dec: 'Dec',
    fov: 'FoV',
  },
  home: {
    preparing: 'Preparing your cruise',
  },
} as const;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Strings = Widen<typeof en>;
