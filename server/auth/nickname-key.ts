// How nicknames are compared for uniqueness ('already taken'): by users.nickname_key (migration
// 0010), the name NFKC-normalised (full-width 'Ｖｅｇａ' is 'Vega'), without zero-width joiners,
// non-joiners and emoji variation selectors (which show nothing of their own), white space runs as
// one space, lower-cased. One SQL expression, the generated column's, so that a name asked about
// is keyed exactly as the stored ones are. lower() follows the database's collation: under a
// C collation only ASCII letters are folded.
import { sql, type RawBuilder } from 'kysely';

/** The key of a nickname given as a value, as users.nickname_key holds it for stored names. */
export function nicknameKey(nickname: string): RawBuilder<string> {
  return sql<string>`lower(regexp_replace(regexp_replace(normalize(${nickname}::text, NFKC), E'[\\u200c\\u200d\\ufe0e\\ufe0f]', '', 'g'), E'\\\\s+', ' ', 'g'))`;
}
