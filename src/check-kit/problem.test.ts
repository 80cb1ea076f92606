import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../model/context.js';
import { errorBodyMarkers, expectFieldErrors } from './problem.js';

describe('errorBodyMarkers', () => {
  it.each([
    ['NestJS NotFoundException without a description', { statusCode: 404, message: 'Not Found' }, ['statusCode: 404']],
    ['a status_code member', { status_code: 422, detail: 'name is required' }, ['status_code: 422']],
    ['a code-and-message envelope with empty data (Gin, Spring)', { code: 40001, msg: 'name is required', data: null }, ['only report members (code, msg, data)']],
    ['the same with data {}', { code: 40001, msg: 'name is required', data: {} }, ['only report members (code, msg, data)']],
    ['a numeric status', { status: 500, message: 'boom' }, ['status: 500']],
    ['a failure flag', { success: false, message: 'name is required' }, ['success: false']],
  ])('finds %s', (_what, body, markers) => {
    expect(errorBodyMarkers(body)).toEqual(markers);
  });

  it.each([
    ['a success envelope', { code: 0, msg: 'ok', data: { id: 1 } }],
    ['a statusCode of a success', { statusCode: 200, message: 'OK', data: [] }],
    ['a resource with a code and a status word', { id: 'p1', code: 'EU', status: 'active', name: 'x' }],
    ['a report whose status is a success', { statusCode: 200, message: 'OK' }],
    ['a success envelope with empty data', { code: 0, msg: 'success', data: null }],
  ])('finds nothing in %s', (_what, body) => {
    expect(errorBodyMarkers(body)).toEqual([]);
  });
});

describe('expectFieldErrors', () => {
  const answer = (errors: unknown): HttpResponse => ({ status: 422, headers: {}, text: JSON.stringify({ errors }), json: { errors }, mediaType: 'application/problem+json', exchangeIndex: 0, url: 'http://x/things', method: 'POST' });

  it.each([
    ['address.zip', 'address'], // Spring, Laravel
    ['/address/zip', 'address'], // a JSON Pointer
    ['tags[0]', 'tags'], // Spring
    ['tags.0', 'tags'], // Laravel
    ['body.name', 'name'], // pydantic's loc joined
    ['Name', 'name'], // ASP.NET's C# property name
  ])('takes %s for the offending field %s', (field, offending) => {
    expect(expectFieldErrors(answer([{ field }]), [offending], 'the answer')).toEqual([field]);
  });

  it('still fails errors that name another field only', () => {
    expect(() => expectFieldErrors(answer([{ field: 'description' }, { field: 'address_line' }]), ['address'], 'the answer')).toThrow(/errors name .*expected the invalid field "address"/);
  });
});
