/**
 * The API's OpenAPI document, held to: every answer the run's other checks received, to an
 * operation the document describes, must be an answer the document describes. The rules
 * are the document's own promises (OpenAPI 3.0 §4.7.16–17, 3.1 §4.8.16–17: a Responses
 * Object lists the statuses, media types, schemas and headers of an operation's answers),
 * not the conventions'; a field the schema does not forbid may be added (the conventions
 * make added fields compatible).
 */
import { defineCheck, type CheckId } from '../../src/model/check.js';
import { headersRule, holdAnswers, mediaTypeRule, schemaRule, statusRule, type AnswerRule } from '../../src/check-kit/documented-answers.js';

/** A check that holds every answer of the run to one of the document's promises (`subject`, for its messages). */
const answersCheck = (id: CheckId, title: string, rule: string, judge: AnswerRule, subject: string) =>
  defineCheck({
    id,
    title,
    rule,
    severity: 'must',
    needs: ['openapi'],
    schedule: 'review',
    async run(ctx, { openapi }) {
      await holdAnswers(ctx, openapi, judge, subject);
    },
  });

export const statusDocumented = answersCheck(
  'DOC-status-documented',
  "Every answer's status is documented for its operation",
  'Each answer to an operation the OpenAPI document describes MUST have a status its responses list (the code, its range such as 4XX, or default), and a 4xx other than 405 SHOULD where the operation lists no client error but 422 (OpenAPI 3.1 §4.8.16 expects the known errors covered, not every code; generated documents list the success alone); statuses the HTTP machinery gives any operation (304, 401, 406, 412, 415, 428, 429), and a 405 or 501 to a HEAD the document does not list, are judged only where listed.',
  statusRule,
  'status',
);

export const mediaTypeDocumented = answersCheck(
  'DOC-media-type-documented',
  "Every answer's media type is documented",
  'An answer with a body MUST carry a Content-Type whose media type the document lists for that operation and status; it SHOULD where an error answer\'s response has no `content` (its payload left undescribed, OpenAPI 3.1 §4.8.17), or where an error in problem+json answers for a documented `application/json`, whose schema then judges the body (as ASP.NET\'s ApiExplorer and FastAPI document problem details).',
  mediaTypeRule,
  'media type',
);

export const bodyMatchesSchema = answersCheck(
  'DOC-body-matches-schema',
  'Every JSON body validates against its documented schema',
  'A JSON body MUST validate against the schema the document gives for its operation, status and media type (read as a response: writeOnly properties are not required), and a value SHOULD match its `format` where it breaks nothing else (JSON Schema 2020-12 makes format an annotation: a date-time without an offset, as Spring and .NET write one, is a warn); a response SHOULD NOT show a property the schema marks writeOnly (OpenAPI 3.0 §4.7.25: a password echoed back).',
  schemaRule,
  'body',
);

export const requiredHeaders = answersCheck(
  'DOC-required-headers',
  'Documented headers are sent, and valid',
  'An answer MUST carry every header its documented response marks required, and each documented header it carries MUST match its schema.',
  headersRule,
  'headers',
);
