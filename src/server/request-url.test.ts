import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestUrl } from './request-url.js';

function viaUrlParser(target: string): { pathname: string; params: [string, string][] } {
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, params: [...url.searchParams] };
}

describe('parseRequestUrl', () => {
  const targets = [
    '/api/v1/namespaces/default/configmaps',
    '/apis/apps/v1/namespaces/kube-system/deployments/coredns/scale',
    '/api/v1/pods?watch=1&resourceVersion=42&allowWatchBookmarks=true',
    '/api/v1/namespaces/default/configmaps?fieldValidation=Strict&dryRun=All&dryRun=All',
    '/api/v1/pods?labelSelector=app%3Dweb%2Cenv+in+(a%2Cb)',
    '/api/v1/pods?labelSelector=app in (a,b)',
    '/api/v1/pods??x=1',
    '/api/v1/pods?a=%zz&b=%ff&c="q"',
    '/api/v1/pods?x=1#fragment',
    '/api/v1/namespaces/default/configmaps/my.config',
    '/api/v1/namespaces/default/configmaps/a%2Fb',
    '/api/v1/namespaces/default/../kube-system/pods',
    '/api/v1/./pods',
    '/api/v1/namespaces/default/configmaps/.hidden',
    '//api/v1/pods',
    '/api//v1',
    '/api\\v1',
    '/api/v1/pods/ name',
    '/openapi/v3/apis/apps/v1',
    '/',
    '/?',
    '/healthz/',
  ];
  for (const target of targets) {
    it(`splits ${JSON.stringify(target)} as the URL parser does`, () => {
      const parsed = parseRequestUrl(target);
      assert.deepEqual({ pathname: parsed.pathname, params: [...parsed.searchParams] }, viaUrlParser(target));
    });
  }
});
