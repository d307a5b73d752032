// How each part of a request is checked against its route's JSON schema (Fastify's
// setValidatorCompiler, one Ajv per kind of part). A JSON body arrives typed, so it is taken as
// it is: a value of the wrong type ("nickname": 123, "country_code": true) or a field the schema
// does not list is a 400, never converted or silently dropped. A path and a query string are
// text, so their numbers and booleans are read from the text, as Fastify does by default.
// Two checks hold for every part of every route, whatever its schema says: no string (nor
// property name) holds a lone UTF-16 surrogate, which is not text and which PostgreSQL's json and
// text types refuse ("invalid input syntax for type json", a 500); and a `date-time` is a real
// instant PostgreSQL and Date can both hold (RFC 3339 allows a leap second, 23:59:60, which Date
// cannot represent, and years such as 0000, which timestamptz has not).
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

/**
 * Fastify's own defaults for the rest: defaults filled in, and the first error only (allErrors
 * would let a crafted body make the check itself expensive).
 */
const shared: Options = { useDefaults: true, addUsedSchema: false, allErrors: false };

/** The range a `date-time` must fall in: from the Unix epoch to the end of year 9999. */
export const INSTANT_MIN_MS = Date.UTC(1970, 0, 1);
export const INSTANT_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const DATE_TIME_MESSAGE = 'must be a date-time (RFC 3339) from 1970 to 9999, without a leap second';
const SURROGATE_MESSAGE = 'must not contain an unpaired UTF-16 surrogate';

/** A format test as Ajv holds it: a regular expression, a function, or an object with `validate`. */
type FormatTest = RegExp | ((text: string) => boolean) | { validate: RegExp | ((text: string) => boolean) };

function passes(test: FormatTest, text: string): boolean {
  const check = typeof test === 'object' && 'validate' in test ? test.validate : test;
  return check instanceof RegExp ? check.test(text) : check(text);
}

function ajvWith(options: Options): Ajv {
  const ajv = new Ajv({ ...shared, ...options });
  addFormats(ajv);
  const rfc3339 = ajv.formats['date-time'] as FormatTest;
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => {
      if (!passes(rfc3339, text)) return false;
      const instant = Date.parse(text);
      return Number.isFinite(instant) && instant >= INSTANT_MIN_MS && instant <= INSTANT_MAX_MS;
    },
  });
  return ajv;
}

const bodies = ajvWith({ coerceTypes: false, removeAdditional: false });
const text = ajvWith({ coerceTypes: 'array', removeAdditional: true });

/**
 * Ajv's messages reworded where they say too little: a field the schema does not list (Ajv names
 * neither the field nor where it is), and a date-time (Ajv does not say what a valid one is).
 */
function clearer(error: ErrorObject): ErrorObject {
  if (error.keyword === 'additionalProperties')
    return { ...error, message: `must NOT have additional property '${error.params.additionalProperty}'` };
  if (error.keyword === 'format' && error.params.format === 'date-time')
    return { ...error, message: DATE_TIME_MESSAGE };
  return error;
}

/** A lone surrogate: in a `u` expression a paired one is one code point and does not match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** JSON Pointer escaping of one path segment (RFC 6901). */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The JSON Pointer of the first string or property name holding a lone surrogate, or undefined.
 * One pass over what JSON.parse built, which the body limits (json-body.ts) bound.
 */
export function illFormedStringAt(value: unknown, pointer = ''): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? pointer : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = illFormedStringAt(value[index], `${pointer}/${index}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${pointerSegment(key)}`;
    if (LONE_SURROGATE.test(key)) return at;
    const found = illFormedStringAt(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

function surrogateError(instancePath: string): ErrorObject {
  return { instancePath, schemaPath: '#', keyword: 'wellFormed', params: {}, message: SURROGATE_MESSAGE };
}

/** The validate function as Fastify calls it: true, or false with the errors in `errors`. */
function withFieldNames(validate: ValidateFunction): { (data: unknown): boolean; errors: ErrorObject[] | null } {
  const check = (data: unknown) => {
    const badString = illFormedStringAt(data);
    if (badString !== undefined) {
      check.errors = [surrogateError(badString)];
      return false;
    }
    const valid = validate(data) as boolean;
    check.errors = valid ? null : (validate.errors ?? []).map(clearer);
    return valid;
  };
  check.errors = null as ErrorObject[] | null;
  return check;
}

export const requestValidatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  withFieldNames((httpPart === 'body' ? bodies : text).compile(schema as object));
