// Common and easily guessed passwords (OWASP ASVS 4.0.3 §2.1.7): zxcvbn-ts with its common
// dictionary (the most frequent passwords of public breaches, English words, names, keyboard
// patterns) estimates how many guesses a password takes. Server only: the dictionaries are
// about 2 MB, which the client's first download should not carry, and a request need not come
// from the app anyway.
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

/**
 * zxcvbn's score 2 ("somewhat guessable": fewer than 10^8 guesses is 0 or 1) is the least taken.
 * Guesses at login are slowed by the rate limits and argon2, so a password that needs about 10^8
 * of them is out of an online guesser's reach; 'password', '12345678', 'Passw0rd!' and 'iloveyou'
 * are scored 0 or 1.
 */
export const MIN_PASSWORD_SCORE = 2;

/** Words of this site that a volunteer's password should not lean on. */
const SITE_WORDS = ['galaxy', 'cruise', 'galaxycruise', 'hsc', 'subaru'];

/**
 * The check runs on the event loop, and its cost grows fast with length and with characters the
 * l33t table could stand for: with zxcvbn-ts's defaults (256 characters, 100 substitutions) one
 * random 128-character password took over half a second. Only the first 64 characters are
 * scored (64 characters whose start is not guessable are not guessable either) and at most 20
 * l33t substitutions tried, which keeps one check to some tens of milliseconds.
 */
const SCORED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 20;

let factory: ZxcvbnFactory | undefined;

/**
 * Whether the password is too common or too easily guessed. `userInputs` are the account's own
 * words (its address, its nickname), which a guesser would try first.
 */
export function isGuessablePassword(password: string, userInputs: readonly string[] = []): boolean {
  factory ??= new ZxcvbnFactory({
    dictionary,
    graphs: adjacencyGraphs,
    maxLength: SCORED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
  // Each input whole, and its words: an address's local part and domain, a nickname's parts.
  const words = userInputs.flatMap((input) => [input, ...input.split('@'), ...input.split(/[@.\s]+/)]).filter(Boolean);
  const inputs = [...SITE_WORDS, ...words];
  return factory.check(password, inputs).score < MIN_PASSWORD_SCORE;
}
