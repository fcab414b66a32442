import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AGGREGATED_DISCOVERY_CONTENT_TYPE,
  AGGREGATED_DISCOVERY_V2BETA1_CONTENT_TYPE,
  negotiateDiscovery,
} from './negotiation.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('discovery negotiation', () => {
  it('R8.11 the Accept header of kubectl 1.32 gets aggregated v2', () => {
    assert.equal(negotiateDiscovery(`${V2},${V2BETA1},application/json`), 'v2');
  });

  it('R8.8 answers with the negotiated media type and g/v/as parameters', () => {
    assert.equal(AGGREGATED_DISCOVERY_CONTENT_TYPE, V2);
    assert.equal(AGGREGATED_DISCOVERY_V2BETA1_CONTENT_TYPE, V2BETA1);
  });

  it('plain JSON, wildcards and a missing header get legacy discovery', () => {
    assert.equal(negotiateDiscovery('application/json'), 'legacy');
    assert.equal(negotiateDiscovery('application/json, */*'), 'legacy');
    assert.equal(negotiateDiscovery('*/*'), 'legacy');
    assert.equal(negotiateDiscovery(''), 'legacy');
    assert.equal(negotiateDiscovery(undefined), 'legacy');
  });

  it('an older client asking only for v2beta1 gets v2beta1', () => {
    assert.equal(negotiateDiscovery(`${V2BETA1},application/json`), 'v2beta1');
  });

  it('an aggregated clause after plain JSON still wins, as the aggregated endpoint skips unconverted clauses', () => {
    assert.equal(negotiateDiscovery(`application/json,${V2}`), 'v2');
  });

  it('higher q values are preferred', () => {
    assert.equal(negotiateDiscovery(`${V2};q=0.5,${V2BETA1}`), 'v2beta1');
    assert.equal(negotiateDiscovery(`${V2BETA1};q=0.8, ${V2};q=0.9`), 'v2');
  });

  it('wildcard media ranges may carry the aggregated parameters', () => {
    assert.equal(negotiateDiscovery('*/*;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), 'v2');
    assert.equal(negotiateDiscovery('application/*;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), 'v2');
  });

  it('tolerates whitespace around clauses and parameters', () => {
    assert.equal(
      negotiateDiscovery(' application/json; g=apidiscovery.k8s.io; v=v2; as=APIGroupDiscoveryList , application/json'),
      'v2',
    );
  });

  it('unknown versions, kinds, groups and non-JSON media types are not aggregated', () => {
    assert.equal(negotiateDiscovery('application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList'), 'legacy');
    assert.equal(negotiateDiscovery('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscovery'), 'legacy');
    assert.equal(negotiateDiscovery('application/json;g=meta.k8s.io;v=v1;as=APIGroupDiscoveryList'), 'legacy');
    assert.equal(negotiateDiscovery('application/json;v=v2;as=APIGroupDiscoveryList'), 'legacy');
    assert.equal(negotiateDiscovery('text/html;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), 'legacy');
  });

  it('a clause with an unsupported stream or server-version parameter is skipped', () => {
    assert.equal(negotiateDiscovery(`${V2};stream=other,${V2BETA1}`), 'v2beta1');
    assert.equal(negotiateDiscovery(`${V2};sv=v1,application/json`), 'legacy');
  });
});
