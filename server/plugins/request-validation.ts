// How each part of a request is checked against its route's JSON schema (Fastify's
// setValidatorCompiler, one Ajv per kind of part). A JSON body arrives typed, so it is taken as
// it is: a value of the wrong type ("nickname": 123, "country_code": true) or a field the schema
// does not list is a 400, never converted or silently dropped. A path and a query string are
// text, so their numbers and booleans are read from the text, as Fastify does by default.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

/**
 * Fastify's own defaults for the rest: defaults filled in, and the first error only (allErrors
 * would let a crafted body make the check itself expensive).
 */
const shared: Options = { useDefaults: true, addUsedSchema: false, allErrors: false };

function ajvWith(options: Options): Ajv {
  const ajv = new Ajv({ ...shared, ...options });
  addFormats(ajv);
  return ajv;
}

const bodies = ajvWith({ coerceTypes: false, removeAdditional: false });
const text = ajvWith({ coerceTypes: 'array', removeAdditional: true });

/** Ajv's message for a field the schema does not list says neither which field nor where; this one does. */
function namingUnknownField(error: ErrorObject): ErrorObject {
  if (error.keyword !== 'additionalProperties') return error;
  return { ...error, message: `must NOT have additional property '${error.params.additionalProperty}'` };
}

/** The validate function as Fastify calls it: true, or false with the errors in `errors`. */
function withFieldNames(validate: ValidateFunction): { (data: unknown): boolean; errors: ErrorObject[] | null } {
  const check = (data: unknown) => {
    const valid = validate(data) as boolean;
    check.errors = valid ? null : (validate.errors ?? []).map(namingUnknownField);
    return valid;
  };
  check.errors = null as ErrorObject[] | null;
  return check;
}

export const requestValidatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  withFieldNames((httpPart === 'body' ? bodies : text).compile(schema as object));
