import { describe, expect, it } from 'vitest';
import { pathProblems } from './path-design.js';

describe('pathProblems', () => {
  it('passes plural kebab-case nouns nested at most two levels, and noun actions', () => {
    for (const ok of ['/v2/projects', '/v2/projects/{id}/tasks', '/v2/tasks/{id}', '/v2/tasks/5f0c2a9e-1b2c-4d5e-8f90-123456789abc/completion', '/api-keys/12', '/people/{id}', '/v1'])
      expect(pathProblems(ok), ok).toEqual([]);
  });

  it('names verbs, case, singular collections and deep nesting', () => {
    expect(pathProblems('/v2/tasks/{id}/complete')).toEqual(['"complete" is a verb: the method is the verb (§2)']);
    for (const verb of ['publish', 'close', 'void', 'finalize', 'restore', 'unarchive']) expect(pathProblems(`/v2/invoices/{id}/${verb}`), verb).toEqual([`"${verb}" is a verb: the method is the verb (§2)`]);
    expect(pathProblems('/getUsers')).toEqual(['"getUsers" is not lowercase kebab-case']);
    expect(pathProblems('/create-project')).toEqual(['"create-project" is a verb: the method is the verb (§2)']);
    expect(pathProblems('/v2/project/{id}')).toEqual(['"project" names a collection but is not plural']);
    expect(pathProblems('/projects/{id}/tasks/{id}/comments')).toEqual(['nests 3 levels (projects → tasks → comments), at most 2: /<collection>/<id>/<sub-collection> (§2)']);
    expect(pathProblems('/projects/abc/tasks', new Set(['abc']))).toEqual([]);
    expect(pathProblems('/v2/project', new Set(), true)).toEqual(['"project" names a collection but is not plural']);
  });

  it('judges a compound by its head noun: a verb that modifies a noun is no verb, an operation verb first still is', () => {
    for (const ok of ['/v2/upload-sessions/{id}', '/login-attempts', '/v2/sync-jobs/{id}/download-links', '/v2/password-resets/{id}', '/v2/archives/{id}', '/v2/payment-captures', '/v2/projects/{id}/restoration', '/migrations/{id}/archive', '/employees/{id}/pay']) expect(pathProblems(ok), ok).toEqual([]);
    expect(pathProblems('/v2/run-sync')).toEqual(['"run-sync" is a verb: the method is the verb (§2)']);
    expect(pathProblems('/get-users')).toEqual(['"get-users" is a verb: the method is the verb (§2)']);
  });

  it('takes noun compounds that start with an operation verb (add-ons, delete-requests), and finds singular nouns in -s (address, status)', () => {
    for (const ok of ['/v2/add-ons/{id}', '/v2/delete-requests', '/v2/list-items/{id}', '/v2/addresses/{id}', '/v2/statuses', '/v2/menus/{id}', '/v2/wikis']) expect(pathProblems(ok, new Set(), true), ok).toEqual([]);
    for (const singular of ['address', 'status', 'analysis', 'access']) expect(pathProblems(`/v2/${singular}/{id}`), singular).toEqual([`"${singular}" names a collection but is not plural`]);
  });

  it('takes a noun with no plural, a dotted version segment and a prefixed id of an item restprobe did not make', () => {
    for (const ok of ['/v2/staff/{id}', '/v2/inventory', '/v1.0/feedback', '/api/v2.1/projects/{id}/tasks', '/v2/customers/cus_9s6XKz/invoices', '/v2/users/usr_8f3k']) expect(pathProblems(ok, new Set(), true), ok).toEqual([]);
    // A word with an underscore and no digit is no id: it is judged as a name.
    expect(pathProblems('/v2/user_profile/{id}')).toEqual(['"user_profile" is not lowercase kebab-case', '"user_profile" names a collection but is not plural']);
  });

  it('counts nesting from the first collection, so a gateway prefix in the path counts as in the base URL', () => {
    expect(pathProblems('/gateway/team-a/v2/projects/{id}/tasks')).toEqual(pathProblems('/v2/projects/{id}/tasks'));
    expect(pathProblems('/gateway/team-a/v2/projects', new Set(), true)).toEqual([]);
    expect(pathProblems('/gateway/v2/projects/{id}/tasks/{id}/notes')).toEqual(['nests 3 levels (projects → tasks → notes), at most 2: /<collection>/<id>/<sub-collection> (§2)']);
  });
});
