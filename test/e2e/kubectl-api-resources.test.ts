import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const EXPECTED_API_RESOURCES = `
NAME                                SHORTNAMES   APIVERSION                        NAMESPACED   KIND
bindings                                         v1                                true         Binding
componentstatuses                   cs           v1                                false        ComponentStatus
configmaps                          cm           v1                                true         ConfigMap
endpoints                           ep           v1                                true         Endpoints
events                              ev           v1                                true         Event
limitranges                         limits       v1                                true         LimitRange
namespaces                          ns           v1                                false        Namespace
nodes                               no           v1                                false        Node
persistentvolumeclaims              pvc          v1                                true         PersistentVolumeClaim
persistentvolumes                   pv           v1                                false        PersistentVolume
pods                                po           v1                                true         Pod
podtemplates                                     v1                                true         PodTemplate
replicationcontrollers              rc           v1                                true         ReplicationController
resourcequotas                      quota        v1                                true         ResourceQuota
secrets                                          v1                                true         Secret
serviceaccounts                     sa           v1                                true         ServiceAccount
services                            svc          v1                                true         Service
mutatingwebhookconfigurations                    admissionregistration.k8s.io/v1   false        MutatingWebhookConfiguration
validatingadmissionpolicies                      admissionregistration.k8s.io/v1   false        ValidatingAdmissionPolicy
validatingadmissionpolicybindings                admissionregistration.k8s.io/v1   false        ValidatingAdmissionPolicyBinding
validatingwebhookconfigurations                  admissionregistration.k8s.io/v1   false        ValidatingWebhookConfiguration
customresourcedefinitions           crd,crds     apiextensions.k8s.io/v1           false        CustomResourceDefinition
apiservices                                      apiregistration.k8s.io/v1         false        APIService
controllerrevisions                              apps/v1                           true         ControllerRevision
daemonsets                          ds           apps/v1                           true         DaemonSet
deployments                         deploy       apps/v1                           true         Deployment
replicasets                         rs           apps/v1                           true         ReplicaSet
statefulsets                        sts          apps/v1                           true         StatefulSet
selfsubjectreviews                               authentication.k8s.io/v1          false        SelfSubjectReview
tokenreviews                                     authentication.k8s.io/v1          false        TokenReview
localsubjectaccessreviews                        authorization.k8s.io/v1           true         LocalSubjectAccessReview
selfsubjectaccessreviews                         authorization.k8s.io/v1           false        SelfSubjectAccessReview
selfsubjectrulesreviews                          authorization.k8s.io/v1           false        SelfSubjectRulesReview
subjectaccessreviews                             authorization.k8s.io/v1           false        SubjectAccessReview
horizontalpodautoscalers            hpa          autoscaling/v2                    true         HorizontalPodAutoscaler
cronjobs                            cj           batch/v1                          true         CronJob
jobs                                             batch/v1                          true         Job
protectionrules                     pr           cascade.dev/v1alpha1              false        ProtectionRule
certificatesigningrequests          csr          certificates.k8s.io/v1            false        CertificateSigningRequest
leases                                           coordination.k8s.io/v1            true         Lease
endpointslices                                   discovery.k8s.io/v1               true         EndpointSlice
events                              ev           events.k8s.io/v1                  true         Event
flowschemas                                      flowcontrol.apiserver.k8s.io/v1   false        FlowSchema
prioritylevelconfigurations                      flowcontrol.apiserver.k8s.io/v1   false        PriorityLevelConfiguration
ingressclasses                                   networking.k8s.io/v1              false        IngressClass
ingresses                           ing          networking.k8s.io/v1              true         Ingress
networkpolicies                     netpol       networking.k8s.io/v1              true         NetworkPolicy
runtimeclasses                                   node.k8s.io/v1                    false        RuntimeClass
poddisruptionbudgets                pdb          policy/v1                         true         PodDisruptionBudget
clusterrolebindings                              rbac.authorization.k8s.io/v1      false        ClusterRoleBinding
clusterroles                                     rbac.authorization.k8s.io/v1      false        ClusterRole
rolebindings                                     rbac.authorization.k8s.io/v1      true         RoleBinding
roles                                            rbac.authorization.k8s.io/v1      true         Role
priorityclasses                     pc           scheduling.k8s.io/v1              false        PriorityClass
csidrivers                                       storage.k8s.io/v1                 false        CSIDriver
csinodes                                         storage.k8s.io/v1                 false        CSINode
csistoragecapacities                             storage.k8s.io/v1                 true         CSIStorageCapacity
storageclasses                      sc           storage.k8s.io/v1                 false        StorageClass
volumeattachments                                storage.k8s.io/v1                 false        VolumeAttachment
`;

const ALL_VERBS = 'create,delete,deletecollection,get,list,patch,update,watch';

/** Splits a kubectl table into rows of cells, using the header's column starts so empty cells survive. */
function parseTable(output: string): string[][] {
  const lines = output.split('\n').filter((l) => l.trim() !== '');
  const header = lines[0] ?? '';
  const starts = [...header.matchAll(/\S+/g)].map((m) => m.index);
  return lines.map((line) =>
    starts.map((start, i) => {
      const end = starts[i + 1] ?? line.length;
      return line.slice(start, end).trim();
    }),
  );
}

function normalise(output: string): string[] {
  return output
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '');
}

describe('kubectl discovery commands', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl api-resources prints every served resource in discovery order', async () => {
    const out = await ts.kubectlOk(['api-resources']);
    assert.deepEqual(normalise(out), normalise(EXPECTED_API_RESOURCES));
    // Column-aware comparison, so an empty SHORTNAMES cell is not silently absorbed into the next column.
    assert.deepEqual(parseTable(out), parseTable(EXPECTED_API_RESOURCES));
    // A 1.32 kube-apiserver's 58 default resources, plus Cascade's own protectionrules.
    const rows = parseTable(out).slice(1);
    assert.equal(rows.filter((r) => r[2] !== 'cascade.dev/v1alpha1').length, 58);
  });

  it('kubectl api-resources -o wide shows verbs; namespaces cannot be deleted as a collection', async () => {
    const rows = parseTable(await ts.kubectlOk(['api-resources', '-o', 'wide']));
    const header = rows[0] ?? [];
    assert.deepEqual(header, ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', 'VERBS', 'CATEGORIES']);
    const verbsOf = (name: string, apiVersion: string): string | undefined => rows.find((r) => r[0] === name && r[2] === apiVersion)?.[5];
    assert.equal(verbsOf('configmaps', 'v1'), ALL_VERBS);
    assert.equal(verbsOf('deployments', 'apps/v1'), ALL_VERBS);
    assert.equal(verbsOf('namespaces', 'v1'), 'create,delete,get,list,patch,update,watch');
    assert.equal(verbsOf('pods', 'v1'), ALL_VERBS);
    // Review resources are create-only: a create is a question, answered in the response and never stored.
    assert.equal(verbsOf('subjectaccessreviews', 'authorization.k8s.io/v1'), 'create');
    assert.equal(verbsOf('localsubjectaccessreviews', 'authorization.k8s.io/v1'), 'create');
    assert.equal(verbsOf('tokenreviews', 'authentication.k8s.io/v1'), 'create');
    // The legacy bindings resource only binds; componentstatuses are computed on read.
    assert.equal(verbsOf('bindings', 'v1'), 'create');
    assert.equal(verbsOf('componentstatuses', 'v1'), 'get,list');
  });

  it('kubectl api-resources filters by group and scope', async () => {
    const apps = normalise(await ts.kubectlOk(['api-resources', '--api-group=apps', '-o', 'name']));
    assert.deepEqual(apps, ['controllerrevisions.apps', 'daemonsets.apps', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps']);
    const clusterScoped = normalise(await ts.kubectlOk(['api-resources', '--namespaced=false', '-o', 'name']));
    assert.deepEqual(clusterScoped, [
      'componentstatuses',
      'namespaces',
      'nodes',
      'persistentvolumes',
      'mutatingwebhookconfigurations.admissionregistration.k8s.io',
      'validatingadmissionpolicies.admissionregistration.k8s.io',
      'validatingadmissionpolicybindings.admissionregistration.k8s.io',
      'validatingwebhookconfigurations.admissionregistration.k8s.io',
      'customresourcedefinitions.apiextensions.k8s.io',
      'apiservices.apiregistration.k8s.io',
      'selfsubjectreviews.authentication.k8s.io',
      'tokenreviews.authentication.k8s.io',
      'selfsubjectaccessreviews.authorization.k8s.io',
      'selfsubjectrulesreviews.authorization.k8s.io',
      'subjectaccessreviews.authorization.k8s.io',
      'protectionrules.cascade.dev',
      'certificatesigningrequests.certificates.k8s.io',
      'flowschemas.flowcontrol.apiserver.k8s.io',
      'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io',
      'ingressclasses.networking.k8s.io',
      'runtimeclasses.node.k8s.io',
      'clusterrolebindings.rbac.authorization.k8s.io',
      'clusterroles.rbac.authorization.k8s.io',
      'priorityclasses.scheduling.k8s.io',
      'csidrivers.storage.k8s.io',
      'csinodes.storage.k8s.io',
      'storageclasses.storage.k8s.io',
      'volumeattachments.storage.k8s.io',
    ]);
  });

  it('kubectl api-versions lists every served group version', async () => {
    assert.deepEqual(normalise(await ts.kubectlOk(['api-versions'])), [
      'admissionregistration.k8s.io/v1',
      'apiextensions.k8s.io/v1',
      'apiregistration.k8s.io/v1',
      'apps/v1',
      'authentication.k8s.io/v1',
      'authorization.k8s.io/v1',
      'autoscaling/v1',
      'autoscaling/v2',
      'batch/v1',
      'cascade.dev/v1alpha1',
      'certificates.k8s.io/v1',
      'coordination.k8s.io/v1',
      'discovery.k8s.io/v1',
      'events.k8s.io/v1',
      'flowcontrol.apiserver.k8s.io/v1',
      'networking.k8s.io/v1',
      'node.k8s.io/v1',
      'policy/v1',
      'rbac.authorization.k8s.io/v1',
      'scheduling.k8s.io/v1',
      'storage.k8s.io/v1',
      'v1',
    ]);
  });

  it('kubectl version reports the server version', async () => {
    const out = await ts.kubectlOk(['version', '-o', 'json']);
    const server = JSON.parse(out).serverVersion;
    assert.equal(server.gitVersion, 'v1.32.0-cascade');
    assert.equal(server.major, '1');
    assert.equal(server.minor, '32');
    const text = await ts.kubectlOk(['version']);
    assert.match(text, /^Server Version: v1\.32\.0-cascade$/m);
  });

  it('kubectl explain pods.spec.containers describes the Container type from OpenAPI', async () => {
    const out = await ts.kubectlOk(['explain', 'pods.spec.containers']);
    assert.match(out, /^KIND:\s+Pod$/m);
    assert.match(out, /^VERSION:\s+v1$/m);
    assert.match(out, /^FIELD:\s+containers <\[\]Container>$/m);
    assert.match(out, /^\s+image\s+<string>$/m);
    assert.match(out, /^\s+name\s+<string> -required-$/m);
  });

  for (const path of ['/healthz', '/livez', '/readyz']) {
    it(`GET ${path} answers ok`, async () => {
      const res = await ts.request('GET', path);
      assert.equal(res.status, 200);
      assert.equal(res.text, 'ok');
    });
  }
});
