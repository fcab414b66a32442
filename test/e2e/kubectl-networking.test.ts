import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../support/test-server.js';

const NS = 'net';

describe('networking.k8s.io/v1 with kubectl (issue 31)', () => {
  let ts: TestServer;
  const k = (...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS]);
  const kIn = (input: unknown, ...args: string[]): Promise<string> => ts.kubectlOk([...args, '-n', NS], { input: JSON.stringify(input) });
  /** Runs kubectl expecting a refusal, and returns its stderr. */
  const refused = async (input: unknown, ...args: string[]): Promise<string> => {
    const r = await ts.kubectl([...args, '-n', NS], { input: JSON.stringify(input) });
    assert.notEqual(r.code, 0, r.stdout);
    return r.stderr;
  };

  before(async () => {
    ts = await startTestServer();
    await ts.kubectlOk(['create', 'namespace', NS]);
  });
  after(async () => {
    await ts.stop();
  });

  it('kubectl create ingress, get ing prints Class, Hosts, Address and Ports as Kubernetes does', async () => {
    assert.equal(
      await k('create', 'ingress', 'web', '--class=nginx', '--rule=foo.com/bar*=svc:80', '--rule=bar.com/=svc2:http'),
      'ingress.networking.k8s.io/web created\n',
    );
    assert.equal(await k('create', 'ingress', 'tls', '--rule=secure.com/=svc:443,tls=cert'), 'ingress.networking.k8s.io/tls created\n');
    const created = JSON.parse(await k('get', 'ing', 'web', '-o', 'json'));
    assert.equal(created.metadata.generation, 1);
    assert.deepEqual(created.status, { loadBalancer: {} });
    // v1 does not default pathType: kubectl sets it from the rule's "*".
    assert.deepEqual(
      created.spec.rules.map((r: any) => [r.host, r.http.paths[0].path, r.http.paths[0].pathType]),
      [
        ['foo.com', '/bar', 'Prefix'],
        ['bar.com', '/', 'Exact'],
      ],
    );
    // The ingress controller's status write shows up in ADDRESS.
    created.status = { loadBalancer: { ingress: [{ ip: '10.0.0.9' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.1' }] } };
    await ts.kubectlOk(['replace', '--subresource=status', '-f', '-', '-n', NS], { input: JSON.stringify(created) });
    const table = await k('get', 'ing');
    const lines = table.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE$/);
    assert.match(lines[1] ?? '', /^tls\s+<none>\s+secure\.com\s+80, 443\s+\S+$/);
    assert.match(lines[2] ?? '', /^web\s+nginx\s+foo\.com,bar\.com\s+10\.0\.0\.1,10\.0\.0\.9,lb\.example\.com\s+80\s+\S+$/);
    assert.equal(created.metadata.generation, JSON.parse(await k('get', 'ing', 'web', '-o', 'json')).metadata.generation);
    delete created.metadata.resourceVersion;
    created.status = { loadBalancer: { ingress: [{ ip: 'not-an-ip' }, { hostname: '10.0.0.2' }] } };
    const bad = await ts.kubectl(['replace', '--subresource=status', '-f', '-', '-n', NS], { input: JSON.stringify(created) });
    assert.match(
      bad.stderr,
      /\* status.loadBalancer.ingress\[0\].ip: Invalid value: "not-an-ip": must be a valid IP address, \(e.g. 10.9.8.7 or 2001:db8::ffff\)\n\* status.loadBalancer.ingress\[1\].hostname: Invalid value: "10.0.0.2": must be a DNS name, not an IP address/,
    );
  });

  it('invalid Ingresses are refused with 422 and the messages of Kubernetes', async () => {
    const ingress = (paths: unknown[], extra: Record<string, unknown> = {}) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'bad' },
      spec: { rules: [{ host: 'a.com', http: { paths } }], ...extra },
    });
    const backend = { service: { name: 'svc', port: { number: 80 } } };
    assert.match(
      await refused(ingress([{ path: 'foo', pathType: 'Prefix', backend }]), 'create', '-f', '-'),
      /The Ingress "bad" is invalid: spec.rules\[0\].http.paths\[0\].path: Invalid value: "foo": must be an absolute path/,
    );
    assert.match(
      await refused(ingress([{ path: '/', backend }]), 'create', '-f', '-'),
      /spec.rules\[0\].http.paths\[0\].pathType: Required value: pathType must be specified/,
    );
    assert.match(
      await refused(
        ingress([{ path: '/', pathType: 'Exact', backend: { service: { name: 'svc', port: { name: 'http', number: 80 } } } }]),
        'create',
        '-f',
        '-',
      ),
      /spec.rules\[0\].http.paths\[0\].backend: Invalid value: "": cannot set both port name & port number/,
    );
    assert.match(
      await refused(ingress([{ path: '/', pathType: 'Exact', backend: { service: { name: 'svc' } } }]), 'create', '-f', '-'),
      /spec.rules\[0\].http.paths\[0\].backend: Required value: port name or number is required/,
    );
    assert.match(
      await refused({ ...ingress([]), spec: {} }, 'create', '-f', '-'),
      /spec: Invalid value: \[\]networking.IngressRule\(nil\): either `defaultBackend` or `rules` must be specified/,
    );
  });

  it('IngressClass: printer columns, defaulted parameters scope, required and immutable controller', async () => {
    const ingressClass = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'nginx' },
      spec: {
        controller: 'k8s.io/ingress-nginx',
        parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' },
      },
    };
    assert.equal(
      await ts.kubectlOk(['create', '-f', '-'], { input: JSON.stringify(ingressClass) }),
      'ingressclass.networking.k8s.io/nginx created\n',
    );
    const stored = JSON.parse(await ts.kubectlOk(['get', 'ingressclass', 'nginx', '-o', 'json']));
    assert.equal(stored.spec.parameters.scope, 'Cluster');
    const lines = (await ts.kubectlOk(['get', 'ingressclasses'])).trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^NAME\s+CONTROLLER\s+PARAMETERS\s+AGE$/);
    assert.match(lines[1] ?? '', /^nginx\s+k8s\.io\/ingress-nginx\s+IngressParameters\.k8s\.example\.com\/external-lb\s+\S+$/);
    stored.spec.controller = 'example.com/other';
    const r = await ts.kubectl(['replace', '-f', '-'], { input: JSON.stringify(stored) });
    assert.match(r.stderr, /The IngressClass "nginx" is invalid: spec.controller: Invalid value: "example.com\/other": field is immutable/);
    const missing = await ts.kubectl(['create', '-f', '-'], {
      input: JSON.stringify({ ...ingressClass, metadata: { name: 'none' }, spec: {} }),
    });
    assert.match(missing.stderr, /The IngressClass "none" is invalid: spec.controller: Required value/);
  });

  it('kubectl apply of a NetworkPolicy shows the API defaults; get netpol -o wide prints Pod-Selector', async () => {
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'db' },
      spec: {
        podSelector: { matchLabels: { role: 'db' } },
        ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }], ports: [{ port: 6379 }] }],
        egress: [{ to: [{ namespaceSelector: {} }], ports: [{ port: 32000, endPort: 32768, protocol: 'UDP' }] }],
      },
    };
    assert.equal(await kIn(policy, 'apply', '-f', '-'), 'networkpolicy.networking.k8s.io/db created\n');
    const yaml = await k('get', 'netpol', 'db', '-o', 'yaml');
    assert.match(yaml, /\n {2}policyTypes:\n {2}- Ingress\n {2}- Egress\n/);
    assert.match(yaml, /- port: 6379\n {6}protocol: TCP\n/);
    assert.match(yaml, /- endPort: 32768\n {6}port: 32000\n {6}protocol: UDP\n/);
    await kIn({ ...policy, metadata: { name: 'all' }, spec: {} }, 'create', '-f', '-');
    const all = JSON.parse(await k('get', 'netpol', 'all', '-o', 'json'));
    assert.deepEqual(all.spec, { podSelector: {}, policyTypes: ['Ingress'] });
    const lines = (await k('get', 'netpol', '-o', 'wide')).trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^NAME\s+POD-SELECTOR\s+AGE$/);
    assert.match(lines[1] ?? '', /^all\s+<none>\s+\S+$/);
    assert.match(lines[2] ?? '', /^db\s+role=db\s+\S+$/);
  });

  it('invalid NetworkPolicies are refused with the messages of Kubernetes', async () => {
    const policy = (spec: unknown) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'bad' }, spec });
    assert.match(
      await refused(policy({ podSelector: {}, ingress: [{ ports: [{ port: 100, endPort: 50 }] }] }), 'create', '-f', '-'),
      /The NetworkPolicy "bad" is invalid: spec.ingress\[0\].ports\[0\].endPort: Invalid value: 50: must be greater than or equal to `port`/,
    );
    assert.match(
      await refused(policy({ podSelector: {}, egress: [{ ports: [{ port: 'dns', endPort: 60 }] }] }), 'create', '-f', '-'),
      /spec.egress\[0\].ports\[0\].endPort: Invalid value: 60: may not be specified when `port` is non-numeric/,
    );
    assert.match(
      await refused(
        policy({ podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['192.168.0.0/24'] } }] }] }),
        'create',
        '-f',
        '-',
      ),
      /spec.ingress\[0\].from\[0\].ipBlock.except\[0\]: Invalid value: "192.168.0.0\/24": must be a strict subset of `cidr`/,
    );
    assert.match(
      await refused(policy({ podSelector: {}, ingress: [{ from: [{}] }] }), 'create', '-f', '-'),
      /spec.ingress\[0\].from\[0\]: Required value: must specify a peer/,
    );
    assert.match(
      await refused(policy({ podSelector: {}, policyTypes: ['Sideways'] }), 'create', '-f', '-'),
      /spec.policyTypes\[0\]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"/,
    );
  });

  it('DefaultIngressClass admission gives an Ingress without a class the default IngressClass', async () => {
    const defaultClass = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'standard', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
      spec: { controller: 'example.com/standard' },
    };
    await ts.kubectlOk(['create', '-f', '-'], { input: JSON.stringify(defaultClass) });
    await k('create', 'ingress', 'defaulted', '--rule=d.com/=svc:80');
    await k('create', 'ingress', 'chosen', '--class=nginx', '--rule=c.com/=svc:80');
    const className = (name: string) => k('get', 'ing', name, '-o', 'jsonpath={.spec.ingressClassName}');
    assert.equal(await className('defaulted'), 'standard');
    assert.equal(await className('chosen'), 'nginx');
    await ts.kubectlOk(['delete', 'ingressclass', 'standard']);
  });

  it('kubectl explain reads the Ingress schema', async () => {
    const out = await ts.kubectlOk(['explain', 'ingress.spec.rules']);
    assert.match(out, /^GROUP:\s+networking\.k8s\.io$/m);
    assert.match(out, /^KIND:\s+Ingress$/m);
    assert.match(out, /^FIELD: rules <\[\]IngressRule>$/m);
    assert.match(out, /^\s+host\s+<string>$/m);
    assert.match(out, /^\s+http\s+<HTTPIngressRuleValue>$/m);
    const paths = await ts.kubectlOk(['explain', 'ingress.spec.rules.http.paths']);
    assert.match(paths, /^\s+pathType\s+<string> -required-$/m);
    assert.match(paths, /^\s+backend\s+<IngressBackend> -required-$/m);
  });
});
