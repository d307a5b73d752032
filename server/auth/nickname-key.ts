// How nicknames are compared for uniqueness ('already taken'). Two keys, each with a unique index,
// and a name is taken when either matches another account's:
//
// - users.nickname_key (migration 0010): the name NFKC-normalised (full-width 'Ｖｅｇａ' is 'Vega'),
//   without zero-width joiners, non-joiners and emoji variation selectors (which show nothing of
//   their own), white space runs as one space, lower-cased ('VEGA' is 'Vega').
// - users.nickname_skeleton (migration 0013): its confusable skeleton (Unicode TS #39), so that
//   a look-alike from another script ('Vеga' with a Cyrillic е), a combining mark NFKC left
//   unattached ('V\u0301ega') or a look-alike of the same script ('Vega1', 'VegaI') is the name
//   it imitates; the function and the confusables table live in the database.
//
// Both are SQL expressions of the database, the same ones that key the stored names, so that a
// name asked about is keyed exactly as they are. lower() follows the database's collation: under
// a C collation only ASCII letters are folded.
import { sql, type ExpressionBuilder, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema';

/** The key of a nickname given as a value, as users.nickname_key holds it for stored names. */
export function nicknameKey(nickname: string): RawBuilder<string> {
  return sql<string>`lower(regexp_replace(regexp_replace(normalize(${nickname}::text, NFKC), E'[\\u200c\\u200d\\ufe0e\\ufe0f]', '', 'g'), E'\\\\s+', ' ', 'g'))`;
}

/** The confusable skeleton of a nickname given as a value, as users.nickname_skeleton holds it. */
export function nicknameSkeleton(nickname: string): RawBuilder<string> {
  return sql<string>`nickname_skeleton(${nickname}::text)`;
}

/** Users whose nickname is `nickname` by either key: the name is theirs ('already taken'). */
export function holdsNickname(nickname: string) {
  return (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> =>
    eb.or([
      eb.and([eb('nickname_key', '=', nicknameKey(nickname)), eb('nickname_key', '<>', '')]),
      eb.and([eb('nickname_skeleton', '=', nicknameSkeleton(nickname)), eb('nickname_skeleton', '<>', '')]),
    ]);
}
